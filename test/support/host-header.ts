import { request } from 'node:http';
import { assertMatchesDocument } from './contract';

/**
 * A request of the local API at `url` that names `host` in its Host header, as any caller may (fetch always sends the
 * URL's own). The answer, its JSON parsed, is held to the OpenAPI document as every answer in the tests is.
 */
export function requestWithHost(url: string, host: string, { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers: { ...headers, host, ...(text === undefined ? {} : { 'content-type': 'application/json' }) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const contentType = response.headers['content-type'] ?? null;
        const parsed = raw && contentType?.includes('json') ? JSON.parse(raw) : raw || undefined;
        try {
          assertMatchesDocument({ method, path: new URL(url).pathname, status: response.statusCode!, contentType, body: parsed });
          resolve({ status: response.statusCode!, body: parsed });
        } catch (error) {
          reject(error);
        }
      });
    });
    sent.on('error', reject);
    sent.end(text);
  });
}

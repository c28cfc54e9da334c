import { request as httpRequest } from 'node:http';
import { assertMatchesDocument } from './contract';

export interface AnsweredFrom {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * A request sent from `address`, a loopback address of its own (Linux routes all of 127.0.0.0/8 to the loopback
 * interface): the local gateway takes the source from the socket, as API Gateway does, so each address is another
 * source. The answer is held to the OpenAPI document, as every test client's is.
 */
export function requestFrom(address: string, method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<AnsweredFrom> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers, localAddress: address }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const contentType = response.headers['content-type'] ?? null;
        const parsed = text && contentType?.includes('json') ? JSON.parse(text) : text || undefined;
        assertMatchesDocument({ method, path: target.pathname, status: response.statusCode!, contentType, body: parsed });
        resolve({ status: response.statusCode!, headers: response.headers, body: parsed });
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

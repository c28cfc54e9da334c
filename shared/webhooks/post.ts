import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { refusalOf, guardedLookup } from './destination';
import { webhookSettings } from './settings';
import { signedHeaders } from './signature';

export interface PostOutcome {
  /** The receiver's HTTP status; null when it did not answer. */
  statusCode: number | null;
  /** Why there was no answer. */
  error: string | null;
  durationMs: number;
}

/** What a receiver's answer may be read up to: enough to close the connection cleanly, never kept. */
const MAX_ANSWER_BYTES = 64 * 1024;

const describe = (error: NodeJS.ErrnoException) =>
  ({ ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', ENOTFOUND: 'host not found', EAI_AGAIN: 'DNS lookup failed' })[error.code ?? ''] ?? error.message;

/**
 * POSTs one event, signed by Standard Webhooks with every active secret. Resolves with the outcome; it never
 * throws for anything the receiver does (refusing, timing out, answering 500 — all are outcomes).
 */
export function postSigned(url: string, secrets: string[], id: string, body: string): Promise<PostOutcome> {
  const started = Date.now();
  const target = new URL(url);
  const done = (statusCode: number | null, error: string | null): PostOutcome => ({ statusCode, error, durationMs: Date.now() - started });
  const refusal = refusalOf(target);
  if (refusal) return Promise.resolve(done(null, refusal));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'SalesPipeline-Webhooks/1.0',
    ...signedHeaders(secrets, { id, timestamp: Math.floor(started / 1000), body }),
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const outgoing = send(target, { method: 'POST', headers, lookup: guardedLookup, timeout: webhookSettings.timeoutMs, signal: AbortSignal.timeout(webhookSettings.timeoutMs) }, (answer) => {
      let read = 0;
      answer.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) answer.destroy();
      });
      answer.on('close', () => resolve(done(answer.statusCode ?? null, null)));
      answer.on('error', () => resolve(done(answer.statusCode ?? null, null)));
    });
    outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error(`no answer within ${webhookSettings.timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      resolve(done(null, error.name === 'AbortError' || error.code === 'ETIMEDOUT' ? `no answer within ${webhookSettings.timeoutMs / 1000} s` : describe(error))),
    );
    outgoing.end(body);
  });
}

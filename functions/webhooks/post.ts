import { outboundRequest } from '#shared/net/outbound';
import { refusalOf, webhookReach } from './destination';
import { webhookSettings } from './settings';
import { signedHeaders } from '#shared/signed-posts';
import { clock } from '#shared/clock';

export interface PostOutcome {
  /** The receiver's HTTP status; null when it did not answer. */
  statusCode: number | null;
  /** Why there was no answer. */
  error: string | null;
  durationMs: number;
  /** How long the receiver asked to be left before another attempt (its `Retry-After`), in ms; null when it did not say. */
  retryAfterMs: number | null;
}

/** What a receiver's answer may be read up to: enough to close the connection cleanly, never kept. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * A `Retry-After` value (RFC 9110 §10.2.3) as ms from `now`: delay-seconds, or an HTTP-date (IMF-fixdate, or the
 * obsolete RFC 850 and asctime forms a recipient must still accept; each starts with the day's name). Anything else
 * is no request at all.
 */
export function retryAfterMs(header: string | undefined, now = clock.now()): number | null {
  const value = header?.trim() ?? '';
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  const at = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const describe = (error: NodeJS.ErrnoException) =>
  ({ ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', ENOTFOUND: 'host not found', EAI_AGAIN: 'DNS lookup failed' })[error.code ?? ''] ?? error.message;

/**
 * POSTs one event, signed by Standard Webhooks with every active secret. Resolves with the outcome; it never
 * throws for anything the receiver does (refusing, timing out, answering 500 — all are outcomes). The status line
 * is the answer: the outcome resolves when it arrives, and the body, which nothing reads, is drained up to
 * MAX_ANSWER_BYTES meanwhile without being waited for (a 200 whose body is still arriving at the timeout succeeded;
 * a retry would deliver the event twice). The timeout then ends the connection whatever it is still sending.
 */
export function postSigned(url: string, secrets: string[], id: string, body: string): Promise<PostOutcome> {
  const started = Date.now();
  const target = new URL(url);
  const done = (statusCode: number | null, error: string | null, retryAfter: string | undefined = undefined): PostOutcome => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
    retryAfterMs: retryAfterMs(retryAfter),
  });
  const refusal = refusalOf(target);
  if (refusal) return Promise.resolve(done(null, refusal));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'SalesPipeline-Webhooks/1.0',
    ...signedHeaders(secrets, { id, timestamp: Math.floor(started / 1000), body }),
  };
  return new Promise((resolve) => {
    const outgoing = outboundRequest(target, webhookReach(), { method: 'POST', headers, timeout: webhookSettings.timeoutMs, signal: AbortSignal.timeout(webhookSettings.timeoutMs) }, (answer) => {
      resolve(done(answer.statusCode ?? null, null, answer.headers['retry-after']));
      let read = 0;
      answer.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) answer.destroy();
      });
      // The connection ended mid-body (by the cap, the timeout or the receiver): the answer was already had.
      answer.on('error', () => undefined);
    });
    outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error(`no answer within ${webhookSettings.timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      resolve(done(null, error.name === 'AbortError' || error.code === 'ETIMEDOUT' ? `no answer within ${webhookSettings.timeoutMs / 1000} s` : describe(error))),
    );
    outgoing.end(body);
  });
}

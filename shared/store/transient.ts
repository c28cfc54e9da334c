import { ApiError } from '../errors';

/** What the SDK or DynamoDB name a call that timed out, was throttled, or failed on DynamoDB's side. */
const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'TransactionInProgressException',
  'InternalServerError',
  'ServiceUnavailable',
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  // STS's name for a throttled AssumeRole, which fails the call it would have signed (shared/tenancy/credentials.ts).
  'Throttling',
]);

/** A transaction's cancellation reasons that mean an item was throttled. */
const THROTTLED_ITEM = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** Node's codes for a connection that failed, dropped or timed out. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN', 'EAI_AGAIN']);

/**
 * A DynamoDB call that failed for the store's reasons, not the request's (after the SDK's own attempts): no answer in
 * time, a lost connection, throttling, a fault on DynamoDB's side. A write that failed so may or may not have been
 * applied; a retry may pass.
 */
export function isTransientStoreError(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof ApiError) return false;
  const { name, code, $metadata, CancellationReasons } = error as Error & { code?: string; $metadata?: { httpStatusCode?: number }; CancellationReasons?: { Code?: string }[] };
  // A transaction cancelled because one of its items was throttled: nothing was written, and a retry may pass.
  if (name === 'TransactionCanceledException') return (CancellationReasons ?? []).some((reason) => THROTTLED_ITEM.has(reason.Code ?? ''));
  return TRANSIENT_NAMES.has(name) || (code !== undefined && NETWORK_CODES.has(code)) || ($metadata?.httpStatusCode ?? 0) >= 500;
}

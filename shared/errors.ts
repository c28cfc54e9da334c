/** Domain errors. The HTTP middleware is the only place that turns them into responses. */
export interface ErrorDetail {
  path: string;
  message: string;
  /** The record already holding the value (a 409 for a value that must be unique): its id. */
  existingId?: string;
}

export class ApiError extends Error {
  /** Headers its answer carries besides the envelope's (CORS on an inbound post from an allowed origin). */
  headers: Readonly<Record<string, string>> = {};
  /** What it answers instead of the envelope, for a protocol whose clients read their own (OAuth's `{error, error_description}`). */
  body?: unknown;

  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends ApiError {
  constructor(message = 'Bad request', code = 'BAD_REQUEST', details?: ErrorDetail[]) {
    super(400, message, code, details);
  }
}

export class ValidationError extends BadRequestError {
  constructor(details: ErrorDetail[]) {
    super(details[0] ? describe(details[0]) : 'Bad request', 'VALIDATION_ERROR', details);
  }
}

/** "limit must be at least 1" stays as it is; "Invalid type: …" gets its field in front. */
function describe({ path, message }: ErrorDetail): string {
  return message.startsWith(path) ? message : `${path}: ${message}`;
}

export class NotFoundError extends ApiError {
  constructor(message = 'Not found') {
    super(404, message, 'NOT_FOUND');
  }
}

export class ConflictError extends ApiError {
  constructor(message = 'Conflict') {
    super(409, message, 'CONFLICT');
  }
}

/**
 * A write that lost its race to other requests as often as it was retried: the change was not written, and a retry may
 * pass, so the answer is not kept for its Idempotency-Key (a retry with the same key runs again).
 */
export const changedMeanwhile = () => refusedUnrun(new ConflictError('The record was changed by another request at the same time; try again'));

/**
 * Not the caller's fault and nothing of the request kept: the store did not answer in time, or stayed too busy, for
 * the change to be written. A retry after `Retry-After` seconds (with the same Idempotency-Key too: a 5xx is not kept)
 * runs again.
 */
export class ServiceUnavailableError extends ApiError {
  constructor(message: string, retryAfterSeconds: number, code = 'SERVICE_UNAVAILABLE') {
    super(503, message, code);
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
}

export const STORE_UNAVAILABLE_MESSAGE = 'The store did not answer in time, so the outcome is unknown; retry with the same Idempotency-Key';
/** The same on a route that takes no Idempotency-Key (a read, OAuth's token endpoint, `/mcp`): no key to name. */
export const STORE_UNAVAILABLE_UNKEYED_MESSAGE = 'The store did not answer in time, so the outcome is unknown; retry after Retry-After';

/**
 * The store timed out, was throttled or failed after the SDK's own attempts: the request's writes may or may not have
 * landed. A retry with the same Idempotency-Key runs again and meets what landed (shared/own-writes.ts), so it
 * answers what the first would have.
 */
export const storeUnavailable = (takesIdempotencyKey = true) => new ServiceUnavailableError(takesIdempotencyKey ? STORE_UNAVAILABLE_MESSAGE : STORE_UNAVAILABLE_UNKEYED_MESSAGE, 1, 'STORE_UNAVAILABLE');

/** DynamoDB's 400 KB item limit: only oversized input reaches it, so it is the caller's to fix. */
export class ItemTooLargeError extends BadRequestError {
  constructor() {
    super('The record would be larger than 400 KB; send less text', 'ITEM_TOO_LARGE');
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(413, `The request body is larger than ${limitBytes / 1024} KB`, 'PAYLOAD_TOO_LARGE');
  }
}

/** A body sent as a media type the route does not read: refused before anything parses it, naming what it takes. */
export class UnsupportedMediaTypeError extends ApiError {
  constructor(message: string) {
    super(415, message, 'UNSUPPORTED_MEDIA_TYPE');
  }
}

/**
 * A provider the API hands a request to refused or failed; the API answers this with a bare {message} (502).
 * `unconfirmed` when the provider may have taken the request all the same (no answer in time, a lost connection, a
 * fault on its side).
 */
export class ProviderError extends Error {
  override readonly name: string = 'ProviderError';
  readonly status = 502;

  constructor(
    message: string,
    readonly unconfirmed = false,
  ) {
    super(message);
  }
}

/**
 * Answers that leave the request's change unwritten and a retry worth running: input refused before anything ran (an
 * id that cannot exist, answered as an unknown one), or a write that lost its race as often as it was retried. Sent
 * as they are, but not kept for an Idempotency-Key, as a 400 is not, so a retry runs.
 */
const refusedBeforeRunning = new WeakSet<Error>();
export function refusedUnrun<E extends Error>(error: E): E {
  refusedBeforeRunning.add(error);
  return error;
}
export const wasRefusedUnrun = (error: unknown): boolean => error instanceof Error && refusedBeforeRunning.has(error);

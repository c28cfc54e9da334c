import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { ApiError, ValidationError, wasRefusedUnrun } from '../errors';
import type { JsonResponse } from './envelope';
import { logger } from '../observability';
import type { Attempt } from '../own-writes';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_FORMAT, IDEMPOTENCY_KEY_RULE, isIdempotent, type HttpMethod } from '../routes/route';

type Middleware = MiddlewareObj<APIGatewayProxyEvent, JsonResponse, Error, Context>;

export const REPLAYED_HEADER = 'idempotent-replayed';

/** Where claims and kept answers live; the handler factory passes the DynamoDB one. */
export interface IdempotencyStore {
  claim(organizationId: string, key: string, fingerprint: string): Promise<
    { outcome: 'claimed'; attempt: Attempt } | { outcome: 'completed'; fingerprint: string; replay: () => Promise<JsonResponse> } | { outcome: 'in-progress'; fingerprint: string }
  >;
  complete(organizationId: string, key: string, fingerprint: string, response: JsonResponse): Promise<void>;
  release(organizationId: string, key: string): Promise<void>;
  /** The attempt ended with its outcome unknown (the store did not answer): a retry runs as a later attempt of it. */
  unknown(organizationId: string, key: string, attempt: Attempt): Promise<void>;
}

/** The attempt a request with an Idempotency-Key runs as, once claimed: its work takes its ids and times from it. */
const attempts = new WeakMap<APIGatewayProxyEvent, Attempt>();
export const attemptOf = (event: APIGatewayProxyEvent): Attempt | undefined => attempts.get(event);

function headerValue(event: APIGatewayProxyEvent): string | undefined {
  const name = Object.keys(event.headers ?? {}).find((header) => header.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase());
  return name === undefined ? undefined : (event.headers[name] ?? undefined);
}

/** The same request means the same method, path and body, byte for byte. */
const fingerprintOf = (event: APIGatewayProxyEvent) =>
  createHash('sha256').update(`${event.httpMethod} ${event.path}\n${typeof event.body === 'string' ? event.body : ''}`).digest('base64url');

/**
 * Answers that are not kept, so a retry runs the request again: invalid input, throttling and our faults. A 502
 * is the SMS provider's answer after the message was recorded, and may have been sent: kept, so a retry with
 * the same key never texts the lead again.
 */
const isKept = (status: number) => status !== 400 && status !== 429 && (status < 500 || status === 502);

/** A 503 STORE_UNAVAILABLE: what the request wrote is unknown, so its key waits for a later attempt of the same request. */
const outcomeUnknown = (response: JsonResponse) => response.statusCode === 503 && response.body.includes('"STORE_UNAVAILABLE"');

/** The answer to a key already used for another request (the document shows it as each operation's 409). */
export const keyReused = (key: string) => new ApiError(409, `${IDEMPOTENCY_HEADER} ${key} was already used for a different request`, 'IDEMPOTENCY_KEY_REUSED');

interface Claimed {
  organizationId: string;
  key: string;
  fingerprint: string;
  attempt: Attempt;
}

/**
 * Idempotency-Key on POST and PATCH: the first completed answer to a key is kept for 24 h and replayed
 * verbatim (with Idempotent-Replayed: true) to a retry of the same request; the same key on another
 * request answers 409 IDEMPOTENCY_KEY_REUSED, and while the first still runs, 409 IDEMPOTENCY_IN_PROGRESS.
 * Registered before the error middleware, so it keeps the answer the caller actually got.
 */
export function idempotency(store: IdempotencyStore): Middleware {
  const claims = new WeakMap<object, Claimed>();
  const finish = async (request: Parameters<NonNullable<Middleware['after']>>[0]) => {
    const claimed = claims.get(request);
    if (!claimed || !request.response) return;
    const { organizationId, key, fingerprint } = claimed;
    const kept = isKept(request.response.statusCode) && !wasRefusedUnrun(request.error);
    const finished = kept
      ? store.complete(organizationId, key, fingerprint, request.response)
      : outcomeUnknown(request.response)
        ? store.unknown(organizationId, key, claimed.attempt)
        : store.release(organizationId, key);
    // The answer stands whether or not the key's record could be written: left unfinished, the claim's lock runs out
    // and a retry runs as a later attempt of this request, which meets what it wrote.
    await finished.catch((error: unknown) => logger.warn('Idempotency-Key record not written', { error }));
  };
  return {
    before: async (request) => {
      // A function answering PUT and its PATCH alias: only the PATCH takes the key, as the document says.
      if (!isIdempotent({ method: request.event.httpMethod as HttpMethod })) return undefined;
      const key = headerValue(request.event);
      if (key === undefined) return undefined;
      if (!IDEMPOTENCY_KEY_FORMAT.test(key)) throw new ValidationError([{ path: IDEMPOTENCY_HEADER, message: `${IDEMPOTENCY_HEADER} ${IDEMPOTENCY_KEY_RULE}` }]);
      const organizationId = String(request.event.requestContext?.authorizer?.organizationId ?? '');
      const fingerprint = fingerprintOf(request.event);
      const claim = await store.claim(organizationId, key, fingerprint);
      if (claim.outcome === 'claimed') {
        claims.set(request, { organizationId, key, fingerprint, attempt: claim.attempt });
        attempts.set(request.event, claim.attempt);
        return undefined;
      }
      if (claim.fingerprint !== fingerprint) {
        throw keyReused(key);
      }
      if (claim.outcome === 'in-progress') {
        throw new ApiError(409, `A request with ${IDEMPOTENCY_HEADER} ${key} is still being processed; retry later`, 'IDEMPOTENCY_IN_PROGRESS');
      }
      const kept = await claim.replay();
      return { ...kept, headers: { ...kept.headers, [REPLAYED_HEADER]: 'true' } };
    },
    after: finish,
    onError: finish,
  };
}

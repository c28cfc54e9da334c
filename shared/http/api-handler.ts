import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as v from 'valibot';
import type { RouteDefinition, RouteRequest } from '../routes/route';
import { VIA_HEADER } from '../audit/entry';
import { asWriter, type Writer } from '../audit/writer';
import { withCounterShards } from '../store/counter-shards';
import { claimIdempotencyKey, completeIdempotencyKey, leaveIdempotencyKeyUnknown, releaseIdempotencyKey } from '../store/idempotency';
import { asAttempt } from '../own-writes';
import { storeUnavailable } from '../errors';
import { isTransientStoreError } from '../store/transient';
import { attemptOf, type IdempotencyStore } from './idempotency';
import { routeHandler, type RouteHandle } from './route-handler';

export type { HandlerInput, HandlerOutput, RawRequest } from './route-handler';

/** The handler factory is where the HTTP layer meets storage: the idempotency records live in the table. */
const idempotencyStore: IdempotencyStore = {
  claim: claimIdempotencyKey,
  complete: completeIdempotencyKey,
  release: releaseIdempotencyKey,
  unknown: leaveIdempotencyKeyUnknown,
};

/** A store that did not answer is not a fault of ours: 503 with Retry-After, the outcome unknown. */
const storeUnavailableIfTransient = (error: Error): Error => (isTransientStoreError(error) ? storeUnavailable() : error);

/** A request with an Idempotency-Key runs as its attempt: the same ids, times and write tokens in every attempt. */
const asItsAttempt = <T>(event: APIGatewayProxyEvent, run: () => Promise<T>): Promise<T> => {
  const attempt = attemptOf(event);
  return attempt ? asAttempt(attempt, run) : run();
};

/** The organization's counterShards setting, which the authorizer passes with the organization; 1 on public routes. */
const counterShardsOf = (event: APIGatewayProxyEvent) => Number(event.requestContext?.authorizer?.counterShards ?? 1);

/**
 * Who the request writes as (shared/audit/writer.ts): the API key the authorizer found, by the API or, when the
 * request carries the MCP server's label, by MCP; a public route's post (an inbound URL) as inbound, without a key.
 */
function writerOf(route: Pick<RouteDefinition, 'auth'>, event: APIGatewayProxyEvent): Writer {
  const context = event.requestContext?.authorizer ?? {};
  const keyId = route.auth === 'none' || typeof context.keyId !== 'string' || !context.keyId ? null : context.keyId;
  const label = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === VIA_HEADER)?.[1];
  // A request with an OAuth token the authorizer resolved: the MCP server's for its client, whatever label it carries.
  const clientId = keyId && typeof context.clientId === 'string' && context.clientId;
  return {
    keyId,
    keyName: keyId && typeof context.keyName === 'string' && context.keyName ? context.keyName : null,
    requestId: event.requestContext?.requestId ?? '',
    method: event.httpMethod,
    path: event.path,
    via: keyId === null ? 'inbound' : clientId || label?.trim().toLowerCase() === 'mcp' ? 'mcp' : 'api',
    ...(clientId && { clientId }),
  };
}

/**
 * A route's Lambda handler (see routeHandler): idempotency records kept in the table, counters spread as the
 * organization's setting says, and every record it writes attributed to the request (its audit entries).
 */
export function apiHandler<R extends RouteRequest, S extends v.GenericSchema>(route: RouteDefinition<R, S>, handle: RouteHandle<R, S>) {
  return routeHandler(route, handle, { idempotencyStore, asDomainError: storeUnavailableIfTransient, scope: (event, run) => withCounterShards(counterShardsOf(event), () => asWriter(writerOf(route, event), () => asItsAttempt(event, run))) });
}

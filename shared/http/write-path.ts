import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteDefinition } from '../routes/route';
import { VIA_HEADER } from '../audit/entry';
import { asWriter, type Writer } from '../audit/writer';
import { actingMemberOf, memberSessionOf } from './member-session';
import { claimIdempotencyKey, completeIdempotencyKey, leaveIdempotencyKeyUnknown, releaseIdempotencyKey } from '../store/idempotency';
import { asAttempt } from '../own-writes';
import { attemptOf, idempotency, type IdempotencyStore } from './idempotency';

/**
 * What only a route that writes runs (./api-handler.ts): the Idempotency-Key's records in the table, the writer every
 * record it writes is attributed to (its audit entries), and the attempt its ids, times and write tokens come from.
 * Loaded with import(): a read route's function never parses it, a write route's function at its import.
 */

/** The handler factory is where the HTTP layer meets storage: the idempotency records live in the table. */
const idempotencyStore: IdempotencyStore = {
  claim: claimIdempotencyKey,
  complete: completeIdempotencyKey,
  release: releaseIdempotencyKey,
  unknown: leaveIdempotencyKeyUnknown,
};

/** The Idempotency-Key middleware over the table's records. */
export const keptAnswers = () => idempotency(idempotencyStore);

/** A request with an Idempotency-Key runs as its attempt: the same ids, times and write tokens in every attempt. */
const asItsAttempt = <T>(event: APIGatewayProxyEvent, run: () => Promise<T>): Promise<T> => {
  const attempt = attemptOf(event);
  return attempt ? asAttempt(attempt, run) : run();
};

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
  const session = route.auth === 'none' ? undefined : memberSessionOf(context);
  if (session) return { keyId: null, keyName: null, requestId: event.requestContext?.requestId ?? '', method: event.httpMethod, path: event.path, via: 'session', memberId: session.memberId };
  return {
    keyId,
    keyName: keyId && typeof context.keyName === 'string' && context.keyName ? context.keyName : null,
    requestId: event.requestContext?.requestId ?? '',
    method: event.httpMethod,
    path: event.path,
    via: keyId === null ? 'inbound' : clientId || label?.trim().toLowerCase() === 'mcp' ? 'mcp' : 'api',
    ...(clientId && { clientId }),
    // The member the key or grant acts for: every write names its member, whatever credential they gave it.
    ...(keyId && actingMemberOf(context) !== null && { memberId: actingMemberOf(context) }),
  };
}

/** A write route's request runs as its writer, and as its Idempotency-Key's attempt when it has one. */
export const asWritingRequest = <T>(route: Pick<RouteDefinition, 'auth'>, event: APIGatewayProxyEvent, run: () => Promise<T>): Promise<T> =>
  asWriter(writerOf(route, event), () => asItsAttempt(event, run));

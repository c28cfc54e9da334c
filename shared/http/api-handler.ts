import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as v from 'valibot';
import type { RouteDefinition, RouteRequest } from '../routes/route';
import { withCounterShards } from '../store/counter-shards';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../store/idempotency';
import type { IdempotencyStore } from './idempotency';
import { routeHandler, type RouteHandle } from './route-handler';

export type { HandlerInput, HandlerOutput, RawRequest } from './route-handler';

/** The handler factory is where the HTTP layer meets storage: the idempotency records live in the table. */
const idempotencyStore: IdempotencyStore = {
  claim: claimIdempotencyKey,
  complete: completeIdempotencyKey,
  release: releaseIdempotencyKey,
};

/** The organization's counterShards setting, which the authorizer passes with the organization; 1 on public routes. */
const counterShardsOf = (event: APIGatewayProxyEvent) => Number(event.requestContext?.authorizer?.counterShards ?? 1);

/** A route's Lambda handler (see routeHandler): idempotency records kept in the table, counters spread as the organization's setting says. */
export function apiHandler<R extends RouteRequest, S extends v.GenericSchema>(route: RouteDefinition<R, S>, handle: RouteHandle<R, S>) {
  return routeHandler(route, handle, { idempotencyStore, scope: (event, run) => withCounterShards(counterShardsOf(event), run) });
}

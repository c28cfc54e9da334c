import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as v from 'valibot';
import { answersIdempotently, routeWrites, type RouteDefinition, type RouteRequest } from '../routes/route';
import { withCounterShards } from '../store/counter-shards';
import { storeUnavailable } from '../errors';
import { isTransientStoreError } from '../store/transient';
import { routeHandler, type HandlerStorage, type RouteHandle } from './route-handler';

export type { HandlerInput, HandlerOutput, RawRequest } from './route-handler';

/**
 * A store that did not answer is not a fault of ours: 503 with Retry-After, the outcome unknown. The retry it asks for
 * names the Idempotency-Key only where the route takes one.
 */
const storeUnavailableIfTransient = (route: Pick<RouteDefinition, 'method' | 'alsoPatch' | 'idempotencyKey'>) => {
  const takesKey = answersIdempotently(route);
  return (error: Error): Error => (isTransientStoreError(error) ? storeUnavailable(takesKey) : error);
};

/** The organization's counterShards setting, which the authorizer passes with the organization; 1 on public routes. */
const counterShardsOf = (event: APIGatewayProxyEvent) => Number(event.requestContext?.authorizer?.counterShards ?? 1);

/**
 * The write path (./write-path.ts), loaded once: at import in a deployed function whose route writes (below), at the
 * first request of a write route otherwise (the local server and the tests, which import every route's module).
 */
let writePath: Promise<typeof import('./write-path')> | undefined;
const loadWritePath = () => (writePath ??= import('./write-path'));

/**
 * The handlers of the routes that write, by export name (`createLeadHandler`), written in by the bundler
 * (infra/cdk/bundling.ts); undefined where the code runs unbundled.
 */
declare const WRITE_HANDLERS_BUILT: readonly string[] | undefined;

/**
 * Each route is its own function, and Lambda names its handler in `_HANDLER` (`handlers.createLeadHandler`): a write
 * route's function parses its write path at import, as a cold start did when the factory imported it statically, and
 * a read route's function never does.
 */
const deployedExport = process.env._HANDLER?.split('.').at(-1);
if (typeof WRITE_HANDLERS_BUILT !== 'undefined' && deployedExport !== undefined && WRITE_HANDLERS_BUILT.includes(deployedExport)) await loadWritePath();

/** The storage of a write route: idempotency records kept in the table, and every record it writes attributed to the request (its audit entries). */
const writeStorage = (route: RouteDefinition) => async (): Promise<HandlerStorage> => {
  const { keptAnswers, asWritingRequest } = await loadWritePath();
  return {
    keptAnswers,
    asDomainError: storeUnavailableIfTransient(route),
    scope: (event, run) => withCounterShards(counterShardsOf(event), () => asWritingRequest(route, event, run)),
  };
};

/**
 * A route's Lambda handler (see routeHandler): counters spread as the organization's setting says, a store that did
 * not answer a 503; a route that writes (routeWrites) keeps its idempotency records in the table and attributes every
 * record it writes to the request, through the write path, which a read route's function never loads.
 */
export function apiHandler<R extends RouteRequest, S extends v.GenericSchema>(route: RouteDefinition<R, S>, handle: RouteHandle<R, S>) {
  if (routeWrites(route)) return routeHandler(route, handle, writeStorage(route));
  return routeHandler(route, handle, { asDomainError: storeUnavailableIfTransient(route), scope: (event, run) => withCounterShards(counterShardsOf(event), run) });
}

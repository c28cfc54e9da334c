import { routes } from '../../functions/resources';
import { resourceFileExports } from '../../infra/resource-files';
import type { ResourceTour, RouteClass, Exception, TourStop } from '#shared/route-tour';
import type { RouteDefinition } from '#shared/routes/route';
import { measureDynamoCalls, type DynamoCall } from './dynamo-calls';
import { createMember } from '../../functions/organization/member-rules';
import { TOUR_OWNER } from '../../functions/organization/tour';
import { asWriter } from '#shared/audit/writer';

/** What the tour needs of an HTTP client: the test client and the benchmark's both fit. */
type TourAnswer = Promise<{ status: number; body: any; headers?: Headers }>;
/** Headers a stop sends instead of the client's own. */
type TourOptions = { headers?: Record<string, string> };
export interface TourClient {
  get: (path: string, options?: TourOptions) => TourAnswer;
  post: (path: string, body?: unknown, options?: TourOptions) => TourAnswer;
  put: (path: string, body: unknown, options?: TourOptions) => TourAnswer;
  patch: (path: string, body: unknown, options?: TourOptions) => TourAnswer;
  delete: (path: string, options?: TourOptions) => TourAnswer;
  /** Resolves once the server's in-process queues are idle (`afterQueues`). */
  queuesIdle: () => Promise<void>;
}

export type { Exception, RouteClass } from '#shared/route-tour';

/**
 * Every resource's stops (`tour` of its `functions/<resource>/tour.ts`, read through the list of resources): in the
 * list's order, a resource after those it names in `after`, then every resource's `last` in the reverse order.
 */
async function tourStops(): Promise<TourStop[]> {
  const tours = await resourceFileExports<ResourceTour>('tour.ts', 'tour');
  const ordered: string[] = [];
  while (ordered.length < tours.size) {
    const next = [...tours].find(([name, { after = [] }]) => !ordered.includes(name) && after.every((other) => ordered.includes(other)));
    if (!next) throw new Error(`no resource's tour can go next: ${[...tours.keys()].filter((name) => !ordered.includes(name)).join(', ')} name one another, or a resource with no tour`);
    ordered.push(next[0]);
  }
  const partsOf = (name: string) => tours.get(name)!;
  return [...ordered.flatMap((name) => partsOf(name).stops), ...ordered.toReversed().flatMap((name) => partsOf(name).last ?? [])];
}

/** One request per route, in an order where each finds what it needs: every route of the API, once. */
const STOPS = await tourStops();

export interface RouteVisit {
  route: RouteDefinition;
  kind: RouteClass;
  /** The path requested, with its query. */
  path: string;
  status: number;
  calls: DynamoCall[];
  exception?: Exception;
}

const routeKey = (route: RouteDefinition) => `${route.method} ${route.path}`;

/** The routes the tour visits, so a test can tell when a new route is missing from it. */
export const TOURED_ROUTES = STOPS.map((stop) => stop.route);

/** The tour's stops in their order, for a test per stop (`routeVisitor`): several may visit one route (its searches). */
export const TOUR_STOPS: readonly TourStop[] = STOPS;

/**
 * The tour for a fresh organization one stop at a time, in TOUR_STOPS' order: each visit sends its stop's request,
 * with what the stops before it kept, and records the DynamoDB calls (and consumed capacity) it made.
 */
export function routeVisitor(client: TourClient): (stop: TourStop) => Promise<RouteVisit> {
  const byKey = new Map(routes.map((route) => [routeKey(route), route]));
  const state: Record<string, unknown> = {};
  let owner: Promise<unknown> | undefined;
  return async (stop) => {
    // A fresh organization has its owner, made with it by the operator's CLI, as the CLI attributes its writes
    // (functions/organization/tour.ts): outside any stop's calls.
    const operator = { keyId: null, keyName: null, requestId: 'admin_tour', method: null, path: null, via: 'admin' as const };
    owner ??= client.get('/v1/organization').then(({ body }) => asWriter(operator, () => createMember(body.organization.id, TOUR_OWNER)));
    await owner;
    const route = byKey.get(stop.route);
    if (!route) throw new Error(`the tour names ${stop.route}, which is not a route`);
    if (stop.afterQueues) await client.queuesIdle();
    const { method, path, body, headers } = stop.request(state);
    let answer: { status: number; body: any; headers?: Headers } = { status: 0, body: null };
    const calls = await measureDynamoCalls(async () => {
      answer = await send(client, method, path, body, headers === undefined ? undefined : { headers });
    });
    if (stop.status !== undefined ? answer.status !== stop.status : answer.status >= 300) throw new Error(`${stop.route} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    stop.keep?.(answer.body, state, answer.headers ?? new Headers());
    return { route, kind: stop.kind, path, status: answer.status, calls, exception: stop.exception };
  };
}

/**
 * Sends one request per route for a fresh organization and records the DynamoDB calls (and consumed
 * capacity) each made. Meta routes without calls (the reference script) are left out: they touch no table.
 */
export async function tourRoutes(client: TourClient): Promise<RouteVisit[]> {
  const visit = routeVisitor(client);
  const visits: RouteVisit[] = [];
  for (const stop of STOPS) visits.push(await visit(stop));
  return visits;
}

function send(client: TourClient, method: string, path: string, body: unknown, options: TourOptions | undefined) {
  switch (method) {
    case 'GET':
      return client.get(path, options);
    case 'DELETE':
      return client.delete(path, options);
    case 'POST':
      return client.post(path, body, options);
    case 'PUT':
      return client.put(path, body, options);
    default:
      return client.patch(path, body, options);
  }
}

/** Whether a visit keeps its class's budget; a batch is given the number of items it sent. */
export function withinBudget(visit: RouteVisit, batchItems = 3): boolean {
  const names = visit.calls.map((call) => call.command);
  switch (visit.kind) {
    case 'read':
      return names.length === 1;
    case 'list':
      return names.length <= 2 && (names.length < 2 || overlapped(visit.calls[0]!, visit.calls[1]!));
    case 'create':
      return names.length === 1 && names[0] === 'TransactWriteItemsCommand';
    case 'batch':
      return names.length === 1 + batchItems && isRead(names[0]!) && names.slice(1).every((name) => !isRead(name));
    default:
      return true;
  }
}

const isRead = (command: string) => /^(Get|BatchGet|Query|TransactGet)/.test(command);
/** Two calls were in flight together: the second was sent before the first answered. */
const overlapped = (a: DynamoCall, b: DynamoCall) => b.sentAt < a.answeredAt && a.sentAt < b.answeredAt;

/**
 * The round-trip budget a route is held to: a single read is 1 call; a list page 1 at most 2, sent together;
 * a create 1 transaction and nothing else; a batch of N, 1 read and N writes. `other` (updates, deletes,
 * the public description) has no class budget, only its own recorded calls.
 */
export type RouteClass = 'read' | 'list' | 'create' | 'batch' | 'other';

/** Why a route needs more than its class allows: the price of a rule of the API, named in docs/performance.md. */
export interface Exception {
  reason: string;
}

/** What the tour's answers so far gave the requests after them, by name (`leadId`). */
export type TourState = Record<string, any>;

/** One request of the route tour (test/support/route-tour.ts), which records the DynamoDB calls it makes. */
export interface TourStop {
  route: string;
  kind: RouteClass;
  /** `headers` replace the client's own (a member's session as its bearer token, instead of the tour's key). */
  request: (ctx: TourState) => { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; body?: unknown; headers?: Record<string, string> };
  /** What the answer gives later stops (a sign-in's cookie is in its headers). */
  keep?: (body: any, ctx: TourState, headers: Headers) => void;
  exception?: Exception;
  /** The answer's status when it is not a success: a read of a record the tour cannot make (an event needs the stream consumer). */
  status?: number;
  /**
   * What a queue's worker does for the stops before it must be done first (a sign-in code made and texted off the
   * request): the tour waits for the queues to be idle, so the worker's calls are no stop's.
   */
  afterQueues?: true;
}

/**
 * A resource's part of the route tour, exported as `tour` by its `functions/<resource>/tour.ts`: a request per route.
 * The tour runs the resources' stops in the list's order, each after those of the resources it names, then every
 * `last` in the reverse order: the deletes of records others point at.
 */
export interface ResourceTour {
  after?: readonly string[];
  stops: readonly TourStop[];
  last?: readonly TourStop[];
}

/** The exception of a create whose integer id comes from a sequence. */
export const SEQUENCE =
  'Integer ids (the spec’s) come from a per-organization sequence item: one UpdateItem reserves the id before the transaction that writes under it';

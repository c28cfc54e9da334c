import type * as v from 'valibot';
import type { RouteDefinition, RouteRequest } from './route';

type Schema = v.GenericSchema;

const DESCRIBED_BY_RESOURCE = Symbol('describedByResource');

/**
 * A route's schema that only the document reads (a response body, the raw bodies a route reads itself), when it is
 * another resource's or large: the routes module, which every function of the resource imports, holds this mark, and
 * the resource's definition gives the schema (`described`, in its resource.ts, which the document, the stack and the
 * local server read, and none of the resource's functions imports). The mark is truthy where the request pipeline asks
 * whether a route reads raw bodies (`takesNoFields`).
 */
export const describedByResource = <S>(): S => ({ [DESCRIBED_BY_RESOURCE]: true }) as S;

const isDescribedByResource = (value: unknown): boolean => typeof value === 'object' && value !== null && DESCRIBED_BY_RESOURCE in value;

/** The route fields still marked `describedByResource`: a resource must give each (`described`). */
export const undescribedFields = (route: RouteDefinition): string[] => (['response', 'requestBodies'] as const).filter((field) => isDescribedByResource(route[field]));

/** The route table, refused while a route holds a mark its resource did not give. */
export function allDescribed<T extends RouteDefinition>(routes: T[]): T[] {
  const undescribed = routes.flatMap((route) => undescribedFields(route).map((field) => `${route.operationId}.${field}`));
  if (undescribed.length > 0) throw new Error(`The resources do not give ${undescribed.join(', ')}, marked describedByResource in their routes modules (described, in resource.ts)`);
  return routes;
}

/**
 * The route with the schemas its routes module marks `describedByResource` given: the response must be of the route's
 * own response type, so its handlers' answers are still checked against what the document says. Each field given must
 * be one so marked, so a schema is never written in both places.
 */
export function described<R extends RouteRequest, S extends Schema>(route: RouteDefinition<R, S>, fields: { response?: S; requestBodies?: Record<string, Schema> }): RouteDefinition<R, S> {
  for (const [field, value] of Object.entries(fields) as [keyof typeof fields, unknown][]) {
    if (value === undefined) throw new Error(`${route.operationId}.${field} is given no schema`);
    if (!isDescribedByResource(route[field])) throw new Error(`${route.operationId}.${field} is not marked describedByResource in its routes module`);
  }
  return { ...route, ...fields };
}

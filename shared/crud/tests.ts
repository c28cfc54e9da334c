import type { ResourceTests } from '../resource';
import { SEQUENCE, type TourStop } from '../route-tour';
import type { CrudResource } from './define';
import type { FieldTable } from './fields';

/**
 * What a CRUD resource's tests read of it, from its definition, so its folder needs no `tour.ts` or `isolation.ts`:
 * its isolation cases, the id of one of organization A's records (the demo's first, or one made with A's key), and,
 * for a collection under no parent, the route tour's stops: create (sending the example's required fields), change
 * (one it may change beside its unique text), list, read, delete.
 */
export function crudTests<F extends FieldTable>(resource: CrudResource<F>): ResourceTests {
  const { singular, parent, unique } = resource.options;
  const idName = `${singular}Id`;
  const { route, bodies } = resource;
  const isolationIds: ResourceTests['isolationIds'] = async ({ demo, client }) =>
    Array.isArray(demo[`${singular}Ids`]) || parent ? {} : { [idName]: ((await client.post(route.create.path, bodies.created)).body as Record<string, { id: number }>)[singular]!.id };
  if (parent) return { isolationCases: resource.isolationCases, isolationIds };
  const changed = Object.entries(bodies.changes).find(([name]) => name !== (unique?.field as string | undefined)) ?? Object.entries(bodies.changes)[0]!;
  const itemPath = (s: Record<string, unknown>) => `${route.create.path}/${s[idName]}`;
  const stop = (verb: keyof typeof route, kind: TourStop['kind'], request: TourStop['request'], more: Partial<TourStop> = {}): TourStop => ({ route: `${route[verb].method} ${route[verb].path}`, kind, request, ...more });
  const change = (method: 'PUT' | 'PATCH'): TourStop => ({ route: `${method} ${route.update.path}`, kind: 'other', request: (s) => ({ method, path: itemPath(s), body: Object.fromEntries([changed]) }) });
  const stops: TourStop[] = [
    stop('create', 'create', () => ({ method: 'POST', path: route.create.path, body: bodies.created }), { exception: { reason: SEQUENCE }, keep: (b, s) => (s[idName] = b[singular].id) }),
    change('PUT'),
    change('PATCH'),
    stop('list', 'list', () => ({ method: 'GET', path: route.list.path })),
    stop('get', 'read', (s) => ({ method: 'GET', path: itemPath(s) })),
    stop('delete', 'other', (s) => ({ method: 'DELETE', path: itemPath(s) })),
  ];
  return { isolationCases: resource.isolationCases, isolationIds, tour: { stops } };
}

import { apiHandler } from '../http/api-handler';
import { pageEnvelope } from '../pagination';
import type { CrudRecord, CrudResource, CrudVerb } from './define';
import type { FieldTable, FieldValues } from './fields';
import { crudStore, type CrudRules, type CrudScope } from './store';

/** The Lambda handler of one of a CRUD resource's routes, named by the verb. */
export function crudHandler<F extends FieldTable, Q>(resource: CrudResource<F>, verb: CrudVerb, rules?: CrudRules<CrudRecord<F>, Q>) {
  const store = crudStore(resource, rules);
  const { singular, plural, parent } = resource.options;
  const { route } = resource;
  type Path = { [key: string]: string | number };
  const scope = (organizationId: string, path: Path = {}): CrudScope => (parent ? { organizationId, parentId: path[parent.param] as string } : organizationId);
  const idOf = (path: Path) => path[`${singular}Id`] as number;
  switch (verb) {
    case 'list':
      return apiHandler(route.list, async ({ path, query, organizationId }) => pageEnvelope(plural, await store.listPage(scope(organizationId, path as Path), query as Q)) as never);
    case 'create':
      return apiHandler(route.create, async ({ path, body, organizationId }) => ({ [singular]: await store.create(scope(organizationId, path as Path), body as Partial<FieldValues<F>>) }));
    case 'get':
      return apiHandler(route.get, async ({ path, organizationId }) => ({ [singular]: await store.get(scope(organizationId, path), idOf(path)) }));
    case 'update':
      return apiHandler(route.update, async ({ path, body, organizationId }) => ({ [singular]: await store.update(scope(organizationId, path), idOf(path), body as Partial<FieldValues<F>>) }));
    case 'delete':
      return apiHandler(route.delete, async ({ path, organizationId }) => {
        await store.remove(scope(organizationId, path), idOf(path));
        return { success: true as const, id: idOf(path) };
      });
  }
}

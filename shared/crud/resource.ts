import { defineResource, type ResourceDefinition } from '../resource';
import type { CrudResource } from './define';
import type { FieldTable } from './fields';
import { crudTests } from './tests';

/**
 * A resource that is one CRUD collection and nothing else (FAQs, policies): its routes, its record's named schema,
 * its events and audited kind and what its tests read all come from the collection; the resource gives its name,
 * its tag's words and its key builders.
 */
export function crudResource<F extends FieldTable>(collection: CrudResource<F>, own: Pick<ResourceDefinition, 'name' | 'tags' | 'keys' | 'sessionRoles'>) {
  return defineResource({ ...own, routes: collection.routes, components: collection.components, ...collection.changes, tests: crudTests(collection) });
}

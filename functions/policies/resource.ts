import { crudTests } from '#shared/crud/tests';
import { defineResource } from '#shared/resource';
import { policies as collection, policyKeys, policyKeySamples } from './collection';
import { changes } from './changes';

export const policies = defineResource({
  name: 'policies',
  tags: { Policies: 'Business policies the AI receptionist can quote: cancellations, warranties, payment terms.' },
  routes: collection.routes,
  components: collection.components,
  ...changes,
  keys: [{ builders: policyKeys, samples: policyKeySamples }],
  tests: crudTests(collection),
});

import { crudResource } from '#shared/crud/resource';
import { policies as collection, policyKeys, policyKeySamples } from './collection';

export const policies = crudResource(collection, {
  name: 'policies',
  tags: { Policies: 'Business policies the AI receptionist can quote: cancellations, warranties, payment terms.' },
  keys: [{ builders: policyKeys, samples: policyKeySamples }],
});

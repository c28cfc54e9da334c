import { crudResource } from '#shared/crud/resource';
import { policies as collection, policyKeys, policyKeySamples } from './collection';

export const policies = crudResource(collection, {
  name: 'policies',
  tags: { Policies: 'Business policies the AI receptionist can quote: cancellations, warranties, payment terms.' },
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  keys: [{ builders: policyKeys, samples: policyKeySamples }],
});

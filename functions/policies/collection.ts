import { counterNames, keys } from '../../shared/store/keys';
import { defineTextCollection } from '../../shared/text-collection';

/** Business policies the AI receptionist can quote: cancellations, warranties, payment terms. */
export const policies = defineTextCollection({
  entity: 'POLICY',
  singular: 'policy',
  plural: 'policies',
  label: 'Policy',
  tag: 'Policies',
  text: { title: 200, content: 20_000 },
  keys: { item: keys.policy, collection: keys.policies, counter: counterNames.policies },
  names: { one: 'Policy', many: 'Policies' },
  docs: {
    create: { summary: 'Create a policy', description: 'A policy the AI receptionist can quote (cancellations, warranty, payment terms). `isActive` defaults to true.' },
    list: { summary: 'List policies, newest first', description: 'Pages through the organization\'s policies, newest first, with an exact `totalCount`.' },
    update: { summary: 'Change a policy’s title, content or isActive', description: 'Fields left out keep their values. Another organization\'s policy answers 404.' },
    delete: { summary: 'Delete a policy', description: 'Removes the policy and lowers the policies count in one transaction. A policy already gone answers 404.' },
  },
});

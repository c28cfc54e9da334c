import { organizationPartition, pad, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '../../shared/store/keys';
import { defineTextCollection } from '../../shared/text-collection';

const org = organizationPartition;

export const policyKeys = {
  policy: (o: string, id: number): Key => ({ pk: org(o), sk: `POLICY#${pad(id)}` }),
  policies: (o: string): Collection => ({ pk: org(o), skPrefix: 'POLICY#' }),
} as const;

/** The names of the policies' counter items (`COUNT#<name>`). */
export const policyCounterNames = {
  policies: 'POLICIES',
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const policyKeySamples: KeySamples<typeof policyKeys> = {
  policy: () => policyKeys.policy(O, 1),
  policies: () => policyKeys.policies(O),
};

/** Business policies the AI receptionist can quote: cancellations, warranties, payment terms. */
export const policies = defineTextCollection({
  entity: 'POLICY',
  singular: 'policy',
  plural: 'policies',
  label: 'Policy',
  tag: 'Policies',
  text: { title: 200, content: 20_000 },
  keys: { item: policyKeys.policy, collection: policyKeys.policies, counter: policyCounterNames.policies },
  names: { one: 'Policy', many: 'Policies' },
  docs: {
    create: { summary: 'Create a policy', description: 'A policy the AI receptionist can quote (cancellations, warranty, payment terms). `isActive` defaults to true.' },
    list: { summary: 'List policies, newest first', description: 'Pages through the organization\'s policies, newest first, with an exact `totalCount`.' },
    get: { summary: 'Read a policy', description: 'One policy of the organization, as the list shows it. Another organization\'s policy, or one deleted, answers 404.' },
    update: { summary: 'Change a policy’s title, content or isActive', description: 'Fields left out keep their values. Another organization\'s policy answers 404.' },
    delete: { summary: 'Delete a policy', description: 'Removes the policy and lowers the policies count in one transaction. A policy already gone answers 404.' },
  },
});

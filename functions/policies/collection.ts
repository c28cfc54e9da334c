import { keySamplesOf, numberedKey, recordsOfKind } from '#shared/store/keys';
import { defineCrudResource } from '#shared/crud/define';
import { flag, text } from '#shared/crud/fields';

export const policyKeys = {
  policy: numberedKey('POLICY'),
  policies: recordsOfKind('POLICY'),
} as const;

/** The names of the policies' counter items (`COUNT#<name>`). */
export const policyCounterNames = {
  policies: 'POLICIES',
} as const;

export const policyKeySamples = keySamplesOf(policyKeys, { policy: [1], policies: [] });

/** Business policies the AI receptionist can quote: cancellations, warranties, payment terms. */
export const policies = defineCrudResource({
  entity: 'POLICY',
  singular: 'policy',
  plural: 'policies',
  label: 'Policy',
  tag: 'Policies',
  fields: { title: text(200), content: text(20_000), isActive: flag(true) },
  keys: { item: policyKeys.policy, collection: policyKeys.policies, counter: policyCounterNames.policies },
  names: { one: 'Policy', many: 'Policies' },
  example: { id: 1, title: 'Call-out fee', content: 'A $99 call-out fee applies to every visit and covers the first 30 minutes on site.', isActive: true, updatedAt: '2026-09-03T23:00:00.000Z' },
  docs: {
    create: { summary: 'Create a policy', description: 'A policy the AI receptionist can quote (cancellations, warranty, payment terms). `isActive` defaults to true.' },
    list: { summary: 'List policies, newest first', description: 'Pages through the organization\'s policies, newest first, with an exact `totalCount`.' },
    get: { summary: 'Read a policy', description: 'One policy of the organization, as the list shows it. Another organization\'s policy, or one deleted, answers 404.' },
    update: { summary: 'Change a policy’s title, content or isActive', description: 'Fields left out keep their values. Another organization\'s policy answers 404.' },
    delete: { summary: 'Delete a policy', description: 'Removes the policy and lowers the policies count in one transaction. A policy already gone answers 404.' },
  },
});

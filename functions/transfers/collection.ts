import * as v from 'valibot';
import { defineCrudResource } from '#shared/crud/define';
import { field, flag, text } from '#shared/crud/fields';
import { booleanString } from '#shared/filters';
import { NonEmptyString, PageQuery, integerString } from '#shared/schema';
import { keySamplesOf, numberedKey, recordsOfKind, textClaimKey } from '#shared/store/keys';
import { prose } from '#shared/prose';

export const transferKeys = {
  transfer: numberedKey('TRANSFER'),
  transfers: recordsOfKind('TRANSFER'),
  transferLabel: textClaimKey('TRANSFERLABEL'),
} as const;

export const transferKeySamples = keySamplesOf(transferKeys, { transfer: [1], transfers: [], transferLabel: ['Urgent'] });

/** The transfers' change log (updatedSince). */
export const TRANSFER_CHANGES = 'TRANSFERS';

/** WARM: the AI introduces the caller before handing over; COLD: it hands the call straight over. */
export const TRANSFER_METHODS = ['WARM', 'COLD'] as const;
/** Where a call goes: a department by name, a member of the organization (by its id), or any phone number (E.164). */
export const DESTINATION_TYPES = ['DEPARTMENT', 'MEMBER', 'PHONE_NUMBER'] as const;

export const SUMMARY_PLACEHOLDERS = ['name', 'topic', 'summary'] as const;
export const DEFAULT_SUMMARY_FORMAT = 'Caller {name} is calling about {topic}. Summary: {summary}';

const placeholdersOf = (format: string) => [...format.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? '');

const SummaryFormat = (name: string) =>
  v.pipe(
    NonEmptyString(name, 1000),
    v.check((format) => placeholdersOf(format).every((placeholder) => (SUMMARY_PLACEHOLDERS as readonly string[]).includes(placeholder)), `${name} may only use the placeholders {name}, {topic} and {summary}`),
  );

const Settings = () => v.strictObject({ ignore_business_hours: v.boolean('settings.ignore_business_hours must be a boolean') }, 'settings must be an object');

const ScenarioId = (name: string) => v.pipe(v.number(`${name} must be an integer or null`), v.integer(`${name} must be an integer or null`), v.minValue(1, `${name} must be at least 1`));

/** The list's filters: enabled or not, and the scenario a rule names (one that does not exist lists none). */
export const TransferListQuery = v.object({
  ...PageQuery.entries,
  isEnabled: v.optional(booleanString('isEnabled')),
  scenarioId: v.optional(integerString('scenarioId')),
  availableNow: v.optional(booleanString('availableNow')),
});
export type TransferListQuery = v.InferOutput<typeof TransferListQuery>;

/** Rules for when and where the AI receptionist hands a call over; their rules across fields are in rules.ts. */
export const transfers = defineCrudResource({
  entity: 'TRANSFER',
  singular: 'transfer',
  plural: 'transfers',
  label: 'Transfer rule',
  tag: 'Transfers',
  fields: {
    label: text(100),
    /** The label unless given. */
    name: text(200, {}),
    method: field(v.picklist(TRANSFER_METHODS), (name) => v.picklist(TRANSFER_METHODS, `${name} must be one of WARM, COLD`), { required: true }),
    destinationType: field(v.picklist(DESTINATION_TYPES), (name) => v.picklist(DESTINATION_TYPES, `${name} must be one of DEPARTMENT, MEMBER, PHONE_NUMBER`), { required: true }),
    destination: text(200),
    /** When to transfer, in words the AI receptionist follows. */
    conditions: text(2000),
    summaryFormat: field(v.string(), SummaryFormat, { default: DEFAULT_SUMMARY_FORMAT, defaultInBody: true }),
    settings: field(v.object({ ignore_business_hours: v.boolean() }), Settings, { default: { ignore_business_hours: false }, defaultInBody: true }),
    isEnabled: flag(true),
    scenarioId: field(v.nullable(v.pipe(v.number(), v.integer())), ScenarioId, { nullable: true, default: null, defaultInBody: true }),
  },
  showsCreatedAt: true,
  versioned: true,
  keys: { item: transferKeys.transfer, collection: transferKeys.transfers, changeLog: TRANSFER_CHANGES },
  unique: { field: 'label', claim: transferKeys.transferLabel, taken: (label) => `A transfer rule labelled "${label.trim()}" already exists` },
  // rules.ts: the organization's country and a MEMBER destination read; the scenario linked or unlinked; for availableNow, the organization's hours.
  ruleActions: { create: ['GetItem', 'UpdateItem', 'PutItem'], update: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'], delete: ['UpdateItem', 'DeleteItem'], list: ['GetItem'] },
  listQuery: TransferListQuery,
  names: { one: 'Transfer', many: 'Transfers' },
  docs: {
    create: {
      summary: 'Create a call transfer rule',
      description: prose`
        When and where the AI receptionist hands a call over: a department, a member (\`destination\` the member’s id,
        of a member of the organization) or a phone number (a valid number of its plan: E.164, or the national form of
        the organization’s \`country\`, stored in E.164). A label already used in the organization answers 409; a
        \`scenarioId\` must be a scenario of the organization.
      `,
    },
    update: {
      summary: 'Change any subset of a transfer rule’s fields',
      description: prose`
        Fields left out keep their values; the merged rule is checked again (a PHONE_NUMBER destination must be a
        valid number of its plan, read as on create; a changed MEMBER destination must be the id of a member of the
        organization). A label in use answers 409. Concurrent updates are applied one after another, never lost.
      `,
    },
    list: {
      summary: 'List call transfer rules, newest first',
      description: prose`
        The organization’s transfer rules, filtered by \`isEnabled\`, by \`scenarioId\` (a scenario that is not one
        of the organization’s lists none) and by \`availableNow\`: with true, the enabled rules a call can be handed
        to now (within the organization’s business hours, or any time with \`settings.ignore_business_hours\`; hours
        never set hold no rule back), each with its \`conditions\` for the agent to judge; with false, the others.
        \`availableNow\` reads the organization’s hours first. \`totalCount\` counts every rule that passes the
        filters.
      `,
    },
    get: { summary: 'Read a call transfer rule', description: 'One transfer rule. Another organization’s rule answers 404.' },
    delete: { summary: 'Delete a call transfer rule', description: 'Removes the rule; its label is free for another rule at once.' },
  },
  example: {
    id: 1,
    label: 'Emergency plumbing',
    name: 'Emergency plumbing',
    method: 'WARM',
    destinationType: 'DEPARTMENT',
    destination: 'On-call plumber',
    conditions: 'The caller reports a burst pipe, flooding or no hot water at a rental property.',
    summaryFormat: 'Caller {name} is calling about {topic}. Summary: {summary}',
    settings: { ignore_business_hours: true },
    isEnabled: true,
    scenarioId: null,
    createdAt: '2026-08-30T00:05:12.431Z',
    updatedAt: '2026-10-11T06:44:50.090Z',
  },
});

import * as v from 'valibot';
import { booleanString } from '../../shared/filters';
import { NonEmptyString, PageQuery, Timestamp, deletedSchema, integerString, pageSchema, partialUpdateBody } from '../../shared/schema';

/** WARM: the AI introduces the caller before handing over; COLD: it hands the call straight over. */
export const TRANSFER_METHODS = ['WARM', 'COLD'] as const;
/** Where a call goes: a department by name, a member of the organization (by its id), or any phone number (E.164). */
export const DESTINATION_TYPES = ['DEPARTMENT', 'MEMBER', 'PHONE_NUMBER'] as const;

export const SUMMARY_PLACEHOLDERS = ['name', 'topic', 'summary'] as const;
export const DEFAULT_SUMMARY_FORMAT = 'Caller {name} is calling about {topic}. Summary: {summary}';

const placeholdersOf = (format: string) => [...format.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? '');

const SummaryFormat = v.pipe(
  NonEmptyString('summaryFormat', 1000),
  v.check(
    (format) => placeholdersOf(format).every((name) => (SUMMARY_PLACEHOLDERS as readonly string[]).includes(name)),
    'summaryFormat may only use the placeholders {name}, {topic} and {summary}',
  ),
);

const Settings = v.strictObject(
  { ignore_business_hours: v.boolean('settings.ignore_business_hours must be a boolean') },
  'settings must be an object',
);

export const Transfer = v.object({
  id: v.pipe(v.number(), v.integer()),
  label: v.string(),
  name: v.string(),
  method: v.picklist(TRANSFER_METHODS),
  destinationType: v.picklist(DESTINATION_TYPES),
  destination: v.string(),
  /** When to transfer, in words the AI receptionist follows. */
  conditions: v.string(),
  summaryFormat: v.string(),
  settings: v.object({ ignore_business_hours: v.boolean() }),
  isEnabled: v.boolean(),
  scenarioId: v.nullable(v.pipe(v.number(), v.integer())),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Transfer = v.InferOutput<typeof Transfer>;

const transferFields = {
  label: NonEmptyString('label', 100),
  name: NonEmptyString('name', 200),
  method: v.picklist(TRANSFER_METHODS, 'method must be one of WARM, COLD'),
  destinationType: v.picklist(DESTINATION_TYPES, 'destinationType must be one of DEPARTMENT, MEMBER, PHONE_NUMBER'),
  destination: NonEmptyString('destination', 200),
  conditions: NonEmptyString('conditions', 2000),
  summaryFormat: SummaryFormat,
  settings: Settings,
  isEnabled: v.boolean('isEnabled must be a boolean'),
  scenarioId: v.nullable(
    v.pipe(v.number('scenarioId must be an integer or null'), v.integer('scenarioId must be an integer or null'), v.minValue(1, 'scenarioId must be at least 1')),
  ),
};

/** The field map with what a create may leave out and its default (the same pattern for every resource, by design). */
export const CreateTransferBody = v.strictObject({
  ...transferFields,
  name: v.optional(transferFields.name),
  summaryFormat: v.optional(transferFields.summaryFormat, DEFAULT_SUMMARY_FORMAT),
  settings: v.optional(transferFields.settings, { ignore_business_hours: false }),
  isEnabled: v.optional(transferFields.isEnabled, true),
  scenarioId: v.optional(transferFields.scenarioId, null),
});
export type CreateTransferBody = v.InferOutput<typeof CreateTransferBody>;

export const UpdateTransferBody = partialUpdateBody(transferFields);
export type TransferChanges = v.InferOutput<typeof UpdateTransferBody>;

export const TransferIdPath = v.object({ transferId: integerString('transferId', { label: 'Transfer rule' }) });
export const TransferResponse = v.object({ transfer: Transfer });
export const TransferDeleted = deletedSchema(v.pipe(v.number(), v.integer()));
export const TransferPage = pageSchema('transfers', Transfer);

/** The list's filters: enabled or not, and the scenario a rule names (one that does not exist lists none). */
export const TransferListQuery = v.object({
  ...PageQuery.entries,
  isEnabled: v.optional(booleanString('isEnabled')),
  scenarioId: v.optional(integerString('scenarioId')),
  availableNow: v.optional(booleanString('availableNow')),
});
export type TransferListQuery = v.InferOutput<typeof TransferListQuery>;

/** What the AI receptionist knows of the call when it hands it over: the rule's summaryFormat is filled with these. */
export const ResolveTransferBody = v.strictObject({
  name: NonEmptyString('name', 200),
  topic: NonEmptyString('topic', 500),
  summary: NonEmptyString('summary', 5000),
});
export type ResolveTransferBody = v.InferOutput<typeof ResolveTransferBody>;

export const ResolvedTransfer = v.object({
  transferId: v.pipe(v.number(), v.integer()),
  destination: v.string(),
  destinationType: v.picklist(DESTINATION_TYPES),
  method: v.picklist(TRANSFER_METHODS),
  /** The rule's summaryFormat with {name}, {topic} and {summary} filled in. */
  summary: v.string(),
});
export const ResolvedTransferResponse = v.object({ transfer: ResolvedTransfer });

import * as v from 'valibot';
import { Email, Instant, integerString, NonEmptyString, PageQuery, PrefixedId, TEXT_RULE, Timestamp, pageSchema, partialUpdateBody } from '#shared/schema';
import { leadEntity, LeadStatus, MAX_NAME_PART, TypedPhone, unknownMember } from './attributes';
import { prose } from '#shared/prose';

export { LEAD_STATUSES, MAX_NAME_PART, Socials, TypedPhone } from './attributes';

export const Lead = leadEntity.Record;
export type Lead = v.InferOutput<typeof Lead>;

/**
 * How a `name` is split (rules.ts), stated on the field: its parts are held to the bound of the fields they fill, so a
 * lead never holds a name the API would not take back.
 */
export const nameSplitRule = (path: string) =>
  prose`
    Split at its first white space into firstName (the first word) and lastName (the rest, each run of white space
    made one space; none for a single word). Each part may have at most ${MAX_NAME_PART} characters, as firstName and
    lastName may: a longer part answers 400 naming \`${path}\`, even beside a firstName or lastName, which wins over
    its part.
  `;

/** What a create takes: the writable fields, with `name` split into first and last name unless those are given. */
const createLeadEntries = {
  name: v.optional(v.pipe(NonEmptyString('name', 200), v.description(`${nameSplitRule('name')} ${TEXT_RULE}`))),
  ...leadEntity.create,
};

export const CreateLeadBody = v.pipe(
  v.strictObject(createLeadEntries),
  v.forward(
    v.check((body) => body.name !== undefined || body.firstName !== undefined, 'name is required'),
    ['name'],
  ),
  // A caller who left only a phone (as an inbound form records them) can be entered by hand too.
  v.forward(
    v.check((body) => body.email !== undefined || body.phone !== undefined, 'email is required unless phone is given'),
    ['email'],
  ),
  v.metadata({ jsonSchema: { allOf: [{ anyOf: [{ required: ['name'] }, { required: ['firstName'] }] }, { anyOf: [{ required: ['email'] }, { required: ['phone'] }] }] } }),
);
export type CreateLeadBody = v.InferOutput<typeof CreateLeadBody>;

/** Any subset of the writable fields plus the pipeline state; null clears an optional field. */
export const UpdateLeadBody = partialUpdateBody(leadEntity.change);
export type LeadChanges = v.InferOutput<typeof UpdateLeadBody>;

export const ListLeadsQuery = v.object({
  ...PageQuery.entries,
  status: v.optional(LeadStatus),
  companyId: v.optional(leadEntity.attributes.companyId.rule),
  assignedMemberId: v.optional(
    v.pipe(
      integerString('assignedMemberId', { unknown: unknownMember }),
      v.description(
        prose`
          Only the leads assigned to this member, counted exactly (a member removed since still lists theirs). Combines
          with \`status\`, \`companyId\` and a search, not with a range of \`statusChangedAt\`.
        `,
      ),
    ),
  ),
  q: v.optional(
    v.pipe(
      v.string('q must be a string'),
      v.trim(),
      v.minLength(1, 'q must not be empty'),
      v.maxLength(254, 'q must be at most 254 characters'),
      v.description('A name prefix (first or last name, ignoring case and accents), an email (exact, any case) or a phone number in any common form.'),
    ),
  ),
  statusChangedSince: v.optional(
    Instant('statusChangedSince', 'Only the leads that took their `status` at or after this instant (`statusChangedAt`: the leads won this month), the latest first. Needs `status`; combines with `statusChangedBefore` alone.'),
  ),
  statusChangedBefore: v.optional(
    Instant('statusChangedBefore', 'Only the leads that took their `status` before this instant and have kept it since (the quotes gone quiet), the latest first. Needs `status`; combines with `statusChangedSince` alone.'),
  ),
  email: v.optional(Email('email')),
  // Read as a write reads it, so the filter takes what a lead's phone takes.
  phone: v.optional(
    v.pipe(
      TypedPhone,
      v.description("The lead's phone, read as a write reads it: with its country code, or in the national form of the organization's `country`. One that is no valid number of any numbering plan answers 400."),
    ),
  ),
});
export type ListLeadsQuery = v.InferOutput<typeof ListLeadsQuery>;

export const LEAD_MATCHES = ['email', 'phone'] as const;

/**
 * `match` names the contact that finds the lead; the rest are a create's fields, applied to the lead found (as a
 * PATCH) or creating one. `name` (or `firstName`) is needed only to create.
 */
export const UpsertLeadBody = v.pipe(
  v.strictObject({ match: v.picklist(LEAD_MATCHES, `match must be one of ${LEAD_MATCHES.join(', ')}`), ...createLeadEntries }),
  v.forward(
    v.check((body) => body.match !== 'email' || body.email !== undefined, 'email is required when match is email'),
    ['email'],
  ),
  v.forward(
    v.check((body) => body.match !== 'phone' || body.phone !== undefined, 'phone is required when match is phone'),
    ['phone'],
  ),
  v.metadata({
    jsonSchema: {
      oneOf: [
        { properties: { match: { const: 'email' } }, required: ['match', 'email'] },
        { properties: { match: { const: 'phone' } }, required: ['match', 'phone'] },
      ],
    },
  }),
);
export type UpsertLeadBody = v.InferOutput<typeof UpsertLeadBody>;

export const LeadIdPath = v.object({ leadId: PrefixedId('lead', 'leadId') });

export const LeadActivity = v.object({
  id: v.pipe(v.number(), v.integer()),
  event: v.string(),
  data: v.nullable(v.string()),
  referenceId: v.nullable(v.string()),
  userId: v.nullable(v.string()),
  leadId: v.string(),
  createdAt: Timestamp,
  /** Activities are never changed: when it was recorded (its createdAt, unless an inquiry came with an earlier one), the sync order. */
  updatedAt: Timestamp,
});
export type LeadActivity = v.InferOutput<typeof LeadActivity>;

/** The activities a client may add to a lead's timeline; the rest are recorded by what they describe. */
export const CLIENT_ACTIVITY_EVENTS = ['NOTE'] as const;

/** `{event: "NOTE", data}`: a note on the lead's timeline, recorded as a NOTE_ADDED activity. */
export const CreateLeadActivityBody = v.strictObject({
  event: v.picklist(CLIENT_ACTIVITY_EVENTS, `event must be one of ${CLIENT_ACTIVITY_EVENTS.join(', ')}`),
  data: NonEmptyString('data', 5000),
});
export type CreateLeadActivityBody = v.InferOutput<typeof CreateLeadActivityBody>;

export const LeadActivityResponse = v.object({ activity: LeadActivity });

export const LeadPage = pageSchema('leads', Lead);
export const LeadActivityPage = pageSchema('activities', LeadActivity);
export const LeadResponse = v.object({ lead: Lead });
/** `created` says whether the upsert made the lead (201) or changed the one holding the contact (200). */
export const UpsertLeadResponse = v.object({ lead: Lead, created: v.boolean() });

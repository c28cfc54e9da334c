import * as v from 'valibot';
import { Email, everyKeyKept, isPlainObject, NonEmptyString, OptionalText, PageQuery, PrefixedId, TEXT_RULE, Timestamp, pageSchema, partialUpdateBody } from '../../shared/schema';
import { ValidationError } from '../../shared/errors';

export const LEAD_STATUSES = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST'] as const;

/** Characters a phone number is typed with: digits, spaces, brackets, dots, dashes and a leading plus. */
const TYPED_PHONE = /^\+?[\d\s().-]+$/;

/**
 * A phone as people type it. The write reads it as E.164 with the organization's country (rules.ts withPhoneRead)
 * before anything is stored, and answers 400 naming the field when it is no valid number; stored and answered in E.164.
 */
export const TypedPhone = v.pipe(
  v.string('phone must be a string'),
  v.trim(),
  v.maxLength(32, 'phone must be at most 32 characters'),
  v.regex(TYPED_PHONE, 'phone must be a phone number, e.g. +61412345678 or 0412 345 678'),
  v.description(
    "A phone number as people type it: with its country code (`+61 412 345 678`), or in the national form of the organization's `country` (`0412 345 678`, `(02) 9555 1234`). Stored and answered in E.164 (`+61412345678`); one that is no valid number of any numbering plan answers 400 naming the field.",
  ),
);

/** A network's name and the handle on it: text as every other field is, free of control characters and half characters. */
const SocialsRecord = v.pipe(
  v.record(NonEmptyString('socials keys', 50), OptionalText('socials values', 500)),
  v.check((socials) => Object.keys(socials).length <= 20, 'socials may have at most 20 entries'),
);

/** valibot's record takes an array as an object of its indexes; socials must be a real object. */
export const Socials = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'socials must be an object of network to handle, not an array'),
  everyKeyKept('socials'),
  v.metadata({ documentedAs: SocialsRecord }),
  SocialsRecord,
);

export const Lead = v.object({
  id: v.string(),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  suburb: v.nullable(v.string()),
  businessName: v.nullable(v.string()),
  /** Absent on leads stored before companies could be linked: read as null. */
  companyId: v.optional(v.nullable(v.string()), null),
  socials: v.record(v.string(), v.string()),
  status: v.picklist(LEAD_STATUSES),
  createdAt: Timestamp,
  /** When anything about the lead last changed (a PATCH, an inquiry, an SMS reply moving its counts): the sync order. */
  updatedAt: Timestamp,
  read: v.boolean(),
  lastInquiryId: v.nullable(v.string()),
  lastInquiryDate: v.nullable(Timestamp),
  unreadEmails: v.pipe(v.number(), v.integer()),
  unreadCalls: v.pipe(v.number(), v.integer()),
  unreadChatbotThreads: v.pipe(v.number(), v.integer()),
  unreadSMS: v.pipe(v.number(), v.integer()),
  unreadWebformSubmissions: v.pipe(v.number(), v.integer()),
  hasFlaggedInquiry: v.boolean(),
  /** The lead replied STOP to an SMS (START reverses it): no SMS is sent to them until then. Absent on older leads: false. */
  smsOptedOut: v.optional(v.boolean(), false),
});
export type Lead = v.InferOutput<typeof Lead>;

const LeadStatus = v.picklist(LEAD_STATUSES, `status must be one of ${LEAD_STATUSES.join(', ')}`);

/** The largest first or last name a lead takes, which a split `name` is held to as well. */
export const MAX_NAME_PART = 100;

/** The lead's writable fields; a create sets them, a PATCH changes any of them. */
const leadFields = {
  email: Email('email', 'email is required'),
  firstName: NonEmptyString('firstName', MAX_NAME_PART),
  lastName: NonEmptyString('lastName', MAX_NAME_PART),
  phone: TypedPhone,
  suburb: NonEmptyString('suburb', 100),
  businessName: NonEmptyString('businessName', 200),
  socials: Socials,
  companyId: PrefixedId('company', 'companyId', { unknown: (companyId) => new ValidationError([{ path: 'companyId', message: `companyId ${String(companyId)} does not match any company of the organization` }]) }),
};

/**
 * How a `name` is split (rules.ts), stated on the field: its parts are held to the bound of the fields they fill, so a
 * lead never holds a name the API would not take back.
 */
export const nameSplitRule = (path: string) =>
  `Split at its first white space into firstName (the first word) and lastName (the rest, each run of white space made one space; none for a single word). Each part may have at most ${MAX_NAME_PART} characters, as firstName and lastName may: a longer part answers 400 naming \`${path}\`, even beside a firstName or lastName, which wins over its part.`;

/** What a create takes: the writable fields, with `name` split into first and last name unless those are given. */
const createLeadEntries = {
  name: v.optional(v.pipe(NonEmptyString('name', 200), v.description(`${nameSplitRule('name')} ${TEXT_RULE}`))),
  email: v.optional(leadFields.email),
  firstName: v.optional(leadFields.firstName),
  lastName: v.optional(leadFields.lastName),
  phone: v.optional(leadFields.phone),
  suburb: v.optional(leadFields.suburb),
  businessName: v.optional(leadFields.businessName),
  socials: v.optional(leadFields.socials),
  companyId: v.optional(leadFields.companyId),
  /** Where the lead enters the pipeline: NEW unless given, so a lead synced from another system keeps its stage. */
  status: v.optional(LeadStatus),
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
export const UpdateLeadBody = partialUpdateBody({
  ...leadFields,
  lastName: v.nullable(leadFields.lastName),
  phone: v.nullable(leadFields.phone),
  suburb: v.nullable(leadFields.suburb),
  businessName: v.nullable(leadFields.businessName),
  companyId: v.nullable(leadFields.companyId),
  status: LeadStatus,
  read: v.boolean('read must be a boolean'),
});
export type LeadChanges = v.InferOutput<typeof UpdateLeadBody>;

export const ListLeadsQuery = v.object({
  ...PageQuery.entries,
  status: v.optional(LeadStatus),
  companyId: v.optional(leadFields.companyId),
  q: v.optional(
    v.pipe(
      v.string('q must be a string'),
      v.trim(),
      v.minLength(1, 'q must not be empty'),
      v.maxLength(254, 'q must be at most 254 characters'),
      v.description('A name prefix (first or last name, ignoring case and accents), an email (exact, any case) or a phone number in any common form.'),
    ),
  ),
  email: v.optional(Email('email')),
  phone: v.optional(
    v.pipe(
      v.string('phone must be a string'),
      v.trim(),
      v.maxLength(32, 'phone must be at most 32 characters'),
      v.regex(TYPED_PHONE, 'phone must be a phone number, e.g. +61412345678 or 0412 345 678'),
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
export const ActivityPage = pageSchema('activities', LeadActivity);
export const LeadResponse = v.object({ lead: Lead });
/** `created` says whether the upsert made the lead (201) or changed the one holding the contact (200). */
export const UpsertLeadResponse = v.object({ lead: Lead, created: v.boolean() });

import * as v from 'valibot';
import { Email, everyKeyKept, isPlainObject, Money, MONEY_RULE, NonEmptyString, OptionalText, PrefixedId, TEXT_RULE, Timestamp } from '#shared/schema';
import { ValidationError } from '#shared/errors';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { organizationPartition as org } from '#shared/store/keys';
import { prose } from '#shared/prose';

export const LEAD_STATUSES = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST'] as const;

/** Characters a phone number is typed with: digits, spaces, brackets, dots, dashes and a leading plus. */
export const TYPED_PHONE = /^\+?[\d\s().-]+$/;

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
    prose`
      A phone number as people type it: with its country code (\`+61 412 345 678\`), or in the national form of the
      organization's \`country\` (\`0412 345 678\`, \`(02) 9555 1234\`). Stored and answered in E.164
      (\`+61412345678\`); one that is no valid number of any numbering plan answers 400 naming the field.
    `,
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

export const LeadStatus = v.picklist(LEAD_STATUSES, `status must be one of ${LEAD_STATUSES.join(', ')}`);

/** The reasons a lost lead is documented with; any other text is kept as written (and reported as OTHER). */
export const LOST_REASONS = ['PRICE', 'TIMING', 'COMPETITOR', 'NO_RESPONSE', 'NOT_A_FIT', 'OTHER'] as const;

/** The largest expected job value: as large as a product's price may be. */
export const MAX_LEAD_VALUE = 100_000_000;

const LeadValue = v.pipe(
  Money('value', MAX_LEAD_VALUE),
  v.description(`The expected value of the job, in the organization's \`currency\` (GET /v1/organization). ${MONEY_RULE} A change may send null to clear it.`),
);

const LostReason = v.pipe(
  NonEmptyString('lostReason', 200),
  v.description(
    `Why the lead was lost: one of ${LOST_REASONS.map((reason) => `\`${reason}\``).join(', ')}, or free text of up to 200 characters, kept as written. Only a LOST lead has one: sent with any other status it answers 400, and a move off LOST clears it. ${TEXT_RULE}`,
  ),
);

/** The largest first or last name a lead takes, which a split `name` is held to as well. */
export const MAX_NAME_PART = 100;

const Count = v.pipe(v.number(), v.integer());
const Text = v.nullable(v.string());
/** A companyId that names no company of the organization: the rule's refusal, and the write's check inside its transaction. */
export const unknownCompany = (companyId: unknown) => new ValidationError([{ path: 'companyId', message: `companyId ${String(companyId)} does not match any company of the organization` }]);
/** An assignedMemberId that names no member of the organization: the query's refusal of an impossible id, and the write's check inside its transaction. */
export const unknownMember = (memberId: unknown) => new ValidationError([{ path: 'assignedMemberId', message: `assignedMemberId ${String(memberId)} does not match any member of the organization` }]);

/** The largest integer id a member can have (the members' sequence stays within it). */
const MAX_MEMBER_ID = 2_147_483_647;

const AssignedMemberId = v.pipe(
  v.number('assignedMemberId must be an integer'),
  v.integer('assignedMemberId must be an integer'),
  v.minValue(1, 'assignedMemberId must be at least 1'),
  v.maxValue(MAX_MEMBER_ID, `assignedMemberId must be at most ${MAX_MEMBER_ID}`),
  v.description(
    prose`
      The member the lead is assigned to; null: nobody (a write sends null to unassign it). It must be a member of the
      organization, else 400. A member removed later stays named here until the lead is assigned again.
    `,
  ),
);

/**
 * A lead's fields, in the order the create and change bodies take them. Sparse fields are left out of the item while
 * they hold what a new lead has: about 200 bytes of every lead item and of each of its index copies, which keeps a
 * lead within one 1 KB write unit.
 */
const attributes = {
  id: { type: v.string() },
  email: { type: Text, rule: Email('email', 'email is required'), sparse: true, answeredAfter: 'lastName' },
  firstName: { type: Text, rule: NonEmptyString('firstName', MAX_NAME_PART), sparse: true },
  lastName: { type: Text, rule: NonEmptyString('lastName', MAX_NAME_PART), clearable: true, sparse: true },
  phone: { type: Text, rule: TypedPhone, clearable: true, sparse: true },
  suburb: { type: Text, rule: NonEmptyString('suburb', 100), clearable: true, sparse: true },
  businessName: { type: Text, rule: NonEmptyString('businessName', 200), clearable: true, sparse: true },
  socials: { type: v.record(v.string(), v.string()), rule: Socials, sparse: true },
  /** Absent on leads stored before companies could be linked: read as null. */
  companyId: { type: v.optional(Text, null), rule: PrefixedId('company', 'companyId', { unknown: unknownCompany }), clearable: true, sparse: true, answeredAfter: 'businessName' },
  /** Every write may send null: a client mirroring an assignment sends what it has, set or not. Absent while unassigned. */
  assignedMemberId: { type: v.nullable(Count), rule: AssignedMemberId, nullable: true, sparse: true, answeredAfter: 'companyId' },
  /** Where the lead enters the pipeline: NEW unless given, so a lead synced from another system keeps its stage. */
  status: { type: v.picklist(LEAD_STATUSES), rule: LeadStatus, default: 'NEW' },
  /** The expected job value, in the organization's currency; null while unknown. */
  value: { type: v.nullable(v.number()), rule: LeadValue, clearable: true, sparse: true },
  lostReason: { type: Text, rule: LostReason, clearable: true, sparse: true },
  /** When the lead last moved to WON (or was created WON); null while it is not WON. The service alone writes it. */
  wonAt: { type: v.nullable(Timestamp), sparse: true },
  /** When the lead last moved to LOST (or was created LOST); null while it is not LOST. */
  lostAt: { type: v.nullable(Timestamp), sparse: true },
  /**
   * When the lead took the status it has: its last move, or its creation. Null on leads recorded before it was kept.
   * The service alone writes it.
   */
  statusChangedAt: { type: v.nullable(Timestamp), sparse: true },
  // updatedAt: when anything about the lead last changed (a PATCH, an inquiry, an SMS reply moving its counts).
  ...RECORD_TIMES,
  read: { type: v.boolean(), rule: v.boolean('read must be a boolean'), changeOnly: true, sparse: true },
  lastInquiryId: { type: Text, sparse: true },
  lastInquiryDate: { type: v.nullable(Timestamp), sparse: true },
  unreadEmails: { type: Count, sparse: true },
  unreadCalls: { type: Count, sparse: true },
  unreadChatbotThreads: { type: Count, sparse: true },
  unreadSMS: { type: Count, sparse: true },
  unreadWebformSubmissions: { type: Count, sparse: true },
  hasFlaggedInquiry: { type: v.boolean(), sparse: true },
  /** The lead replied STOP to an SMS (START reverses it): no SMS is sent to them until then. Absent on older leads: false. */
  smsOptedOut: { type: v.optional(v.boolean(), false), sparse: true },
} as const;

/**
 * The lead: its attributes, its item (`LEAD#<id>`) and list indexes, by status (gsi2), by company (gsi3) and by the
 * member it is assigned to (gsi5), sort key the lead id (a ULID, so newest first), and by status again sorted by when
 * the lead took it (gsi4). A lead without a company is not in gsi3, an unassigned one not in gsi5; one recorded before
 * statusChangedAt was kept is not in gsi4.
 */
export const leadEntity = defineEntity({
  entity: 'LEAD',
  attributes,
  key: (o, leadId) => ({ pk: org(o), sk: `LEAD#${leadId}` }),
  indexes: {
    gsi2: { fields: ['status'], keys: (o, lead) => ({ pk: `${org(o)}#LEADS#STATUS#${lead.status}`, sk: lead.id }) },
    gsi3: { fields: ['companyId'], keys: (o, lead) => (lead.companyId ? { pk: `${org(o)}#LEADS#COMPANY#${lead.companyId}`, sk: lead.id } : undefined) },
    // A status's leads by when they took it: the quotes gone quiet, the leads won in a month.
    gsi4: { fields: ['status', 'statusChangedAt'], keys: (o, lead) => (lead.statusChangedAt ? { pk: `${org(o)}#LEADS#STATUS#${lead.status}#SINCE`, sk: `${lead.statusChangedAt}#${lead.id}` } : undefined) },
    gsi5: { fields: ['assignedMemberId'], keys: (o, lead) => (lead.assignedMemberId !== null ? { pk: `${org(o)}#LEADS#MEMBER#${lead.assignedMemberId}`, sk: lead.id } : undefined) },
  },
  changes: 'LEADS',
});

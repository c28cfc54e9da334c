import * as v from 'valibot';
import { Lead, LeadActivity } from './schema';
import { leadEntity } from './attributes';
import { countInPartition, organizationPartition, pad, SAMPLE_ORGANIZATION_ID, searchKey, type Collection, type Key, type KeySamples } from '#shared/store/keys';
import { shardCounters } from '#shared/store/counter-shards';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

export const leadKeys = {
  lead: leadEntity.key,
  leads: (o: string): Collection => ({ pk: org(o), skPrefix: 'LEAD#' }),
  /**
   * The lead list indexes (`leadEntity.indexes`), whose keys read only a lead's id, status, company and assignee: a
   * list's too, whose status may be none ('': a company's list reads only its gsi3 keys, a member's its gsi5 keys).
   */
  leadIndexes: (o: string, lead: { id: string; status: string; companyId: string | null; assignedMemberId?: number | null; statusChangedAt?: string | null }) =>
    leadEntity.indexKeys(o, { statusChangedAt: null, assignedMemberId: null, ...lead } as Pick<Lead, 'id' | 'status' | 'companyId' | 'assignedMemberId' | 'statusChangedAt'>) as unknown as LeadIndexKeys,
  /** A status's leads that took it within a range of times (`statusChangedAt`, each end optional), the latest first. */
  // A key starts with a time, after '0' and before '~' (DynamoDB takes no empty string for a bound).
  leadsByStatusSince: (o: string, status: string, { from = '0', before = '~' }: { from?: string; before?: string }) => ({
    index: 'gsi4' as const,
    pk: `${org(o)}#LEADS#STATUS#${status}#SINCE`,
    // A key is `<statusChangedAt>#<id>`: at or after `from`, and below `before` itself (a key at that time sorts after it).
    skBetween: [from, before] as [string, string],
  }),
  /**
   * The lead that last took a contact (EMAIL lower-cased, or PHONE in E.164): how a lead is found by its email or
   * phone (an ingestion, an inbound SMS, a caller, a search), and why concurrent creates for a new contact make one
   * lead. Read consistently, it finds a lead the moment it is written, where an index would lag. Each claim is a
   * partition of its own, so the claims a busy organization's creates write spread over DynamoDB's partitions instead
   * of adding to the organization's.
   */
  leadContact: (o: string, kind: 'EMAIL' | 'PHONE', value: string): Key => ({ pk: `${org(o)}#LEADCONTACT#${kind}#${value}`, sk: 'CLAIM' }),
  /**
   * One item per name a lead is searched by (its full name and its last name, read by `searchKey`: `nameKeysOf`), in
   * one partition sorted by that name: a prefix search reads one key range. Written in the lead's own transactions.
   */
  leadName: (o: string, name: string, leadId: string): Key => ({ pk: `${org(o)}#LEADNAMES`, sk: `${searchKey(name)}#${leadId}` }),
  /** The name items whose name starts with a prefix (itself read by `searchKey`). */
  leadNames: (o: string, prefix: string): Collection => ({ pk: `${org(o)}#LEADNAMES`, skPrefix: searchKey(prefix) }),
  /**
   * Sorted by when it was recorded (its `updatedAt`; activities never change), then its id: activity ids come from
   * each container's block (`ACTIVITY_SEQUENCE`), so they are unique but not in time order across containers.
   */
  activity: (o: string, leadId: string, { id, updatedAt }: Pick<LeadActivity, 'id' | 'updatedAt'>): Key => ({ pk: `${org(o)}#LEAD#${leadId}`, sk: `ACTIVITY#${updatedAt}#${pad(id)}` }),
  activities: (o: string, leadId: string): Collection => ({ pk: `${org(o)}#LEAD#${leadId}`, skPrefix: 'ACTIVITY#' }),
  /** A lead's activities recorded at or after a time, oldest first: their sync, as activities never change. */
  // Up to the activities recorded at `until` (an activity's key is its time, then `#` and its id, which sort before `~`).
  activitiesSince: (o: string, leadId: string, updatedSince: string, until = '~') => ({
    pk: `${org(o)}#LEAD#${leadId}`,
    skBetween: [`ACTIVITY#${updatedSince}`, `ACTIVITY#${until}~`] as [string, string],
    openEnd: 'ACTIVITY#~',
    ascending: true,
  }),
  /**
   * A phone that replied STOP: no SMS goes to it, whichever lead holds it, until it replies START. Written with the
   * lead's phone (`smsOptOutWrite` in ./store), which the SMS resource calls for a STOP or START.
   */
  smsOptOut: (o: string, phone: string): Key => ({ pk: org(o), sk: `SMSOPTOUT#${phone}` }),
  /**
   * The lead's conversation: the latest SMS message recorded with the lead, sent or received, in any of its threads
   * (GET /v1/conversations). Put whole in the transaction of every message recorded, so it is never behind one.
   */
  conversation: (o: string, leadId: string): Key => ({ pk: org(o), sk: `CONVERSATION#${leadId}` }),
  /** gsi1 of a conversation: the organization's conversations, the latest message first (its time, then the lead). */
  conversations: (o: string): Collection => ({ pk: `${org(o)}#CONVERSATIONS` }),
  /**
   * A company item's key: the companies resource's item (its entity maps it), kept here because a lead's write
   * checks that its companyId is one of the organization's companies, and the companies resource already uses
   * leads (its demo data links leads to companies), so leads cannot import it.
   */
  company: (o: string, companyId: string): Key => ({ pk: org(o), sk: `COMPANY#${companyId}` }),
  /**
   * The organization's own item (the organization resource maps it): a phone search or write reads its country for
   * the national form of its numbers. Kept here as `company` is: the organization resource uses leads (its counts).
   */
  organizationRecord: (o: string): Key => ({ pk: org(o), sk: 'ORGANIZATION' }),
} as const;

/** A lead's list index keys; a lead without a company has no gsi3 keys, one without statusChangedAt no gsi4 keys, an unassigned one no gsi5 keys. */
interface LeadIndexKeys {
  gsi2pk: string;
  gsi2sk: string;
  gsi3pk?: string;
  gsi3sk?: string;
  gsi4pk?: string;
  gsi4sk?: string;
  gsi5pk?: string;
  gsi5sk?: string;
}

/** The change log (updatedSince) of the leads. */
export const LEAD_CHANGES = leadEntity.changes;

/** The names of the leads' counter items (`COUNT#<name>`), kept in step with their collection in the same transaction. */
export const leadCounterNames = {
  /** One counter per lead list, so every totalCount is one read (two filters together are counted as read). */
  leads: ({ status, companyId, assignedMemberId }: { status?: string; companyId?: string | null; assignedMemberId?: number | null } = {}) =>
    ['LEADS', ...(companyId ? [`COMPANY#${companyId}`] : []), ...(assignedMemberId ? [`MEMBER#${assignedMemberId}`] : []), ...(status ? [`STATUS#${status}`] : [])].join('#'),
  activities: (leadId: string) => `ACTIVITIES#${leadId}`,
} as const;

// Every lead create of a busy organization writes the list's counters (all leads, and its status's): they may shard.
shardCounters(/^LEADS(#STATUS#[A-Z_]+)?$/);
// And a new activity counter: it sits with the lead's activities, in the lead's own partition.
countInPartition(/^ACTIVITIES#(.+)$/, (organizationId, [, leadId]) => leadKeys.activities(organizationId, leadId!).pk);

const O = SAMPLE_ORGANIZATION_ID;

export const leadKeySamples: KeySamples<typeof leadKeys> = {
  lead: () => leadKeys.lead(O, 'lead_1'),
  leads: () => leadKeys.leads(O),
  leadIndexes: () => leadKeys.leadIndexes(O, { id: 'lead_1', status: 'NEW', companyId: 'company_1', assignedMemberId: 1, statusChangedAt: '2026-11-20T09:00:00.000Z' }),
  leadsByStatusSince: () => leadKeys.leadsByStatusSince(O, 'QUOTED', { before: '2026-11-20T09:00:00.000Z' }),
  leadContact: () => leadKeys.leadContact(O, 'EMAIL', 'jane@example.com'),
  leadName: () => leadKeys.leadName(O, 'Zoë', 'lead_1'),
  leadNames: () => leadKeys.leadNames(O, 'zo'),
  activity: () => leadKeys.activity(O, 'lead_1', { id: 1, updatedAt: '2026-11-20T09:00:00.000Z' }),
  activities: () => leadKeys.activities(O, 'lead_1'),
  activitiesSince: () => leadKeys.activitiesSince(O, 'lead_1', '2026-11-20T09:00:00.000Z'),
  smsOptOut: () => leadKeys.smsOptOut(O, '+61412345678'),
  conversation: () => leadKeys.conversation(O, 'lead_1'),
  conversations: () => leadKeys.conversations(O),
  company: () => leadKeys.company(O, 'company_1'),
  organizationRecord: () => leadKeys.organizationRecord(O),
};

/**
 * The fields a lead's write keys other items by, beside its list indexes: its counters (one per list: status, company
 * and assignee), its name items (its names, carrying its status, company and assignee) and its contact claims. Spelled
 * out rather than read from the indexes, so an index added later does not widen what the counters and name items are
 * keyed by.
 */
export const LEAD_COUNTER_FIELDS = ['status', 'companyId', 'assignedMemberId'] as const;
export const LEAD_NAME_FIELDS = ['firstName', 'lastName', ...LEAD_COUNTER_FIELDS] as const;
const LEAD_CONTACT_FIELDS = ['email', 'phone'] as const;
/**
 * All of them and the indexes' fields, each once: a write is conditioned on their being as read, so what it moves by
 * them (counters, name items, claims, index keys) is what to move.
 */
export const LEAD_KEYED_FIELDS = [...new Set([...LEAD_NAME_FIELDS, ...LEAD_CONTACT_FIELDS, ...leadEntity.indexFields])];

/** What a lead is found by: its email, lower-cased, or its phone. */
export interface LeadContact {
  kind: 'EMAIL' | 'PHONE';
  value: string;
}

/** The lead's item: its own (`leadEntity.toItem`) with its email lower-cased, as its claim names it. */
export function toLeadItem(organizationId: string, lead: Lead) {
  return { ...leadEntity.toItem(organizationId, lead), ...(lead.email ? { [EMAIL_KEY]: lead.email.toLowerCase() } : {}) };
}

/** A lead item (or the attributes of it a read projected) with what it left out read back as the defaults. */
export const withLeadDefaults = leadEntity.withDefaults;

export const fromLeadItem = leadEntity.fromItem;

/** An activity is written once and sorted by when: its sync reads its own partition (`activitiesSince`), so it has no change-log copy. */
export function toActivityItem(organizationId: string, activity: LeadActivity) {
  return { ...leadKeys.activity(organizationId, activity.leadId, activity), entity: 'ACTIVITY', ...activity };
}

export const fromActivityItem = (item: Record<string, unknown>): LeadActivity => v.parse(LeadActivity, item);

/** The lead's contacts, email first: an ingestion finds a lead by email before phone. */
export function contactsOf({ email, phone }: Pick<Lead, 'email' | 'phone'>): LeadContact[] {
  return [...(email ? [{ kind: 'EMAIL' as const, value: email.toLowerCase() }] : []), ...(phone ? [{ kind: 'PHONE' as const, value: phone }] : [])];
}

export const sameContact = (a: LeadContact, b: LeadContact) => a.kind === b.kind && a.value === b.value;

export const hasContact = (lead: Pick<Lead, 'email' | 'phone'>, contact: LeadContact) => contactsOf(lead).some((own) => sameContact(own, contact));

/** The claim on a contact: the lead that last took it (created with it or changed to it). */
export function toLeadContactItem(organizationId: string, contact: LeadContact, leadId: string) {
  return { ...leadKeys.leadContact(organizationId, contact.kind, contact.value), entity: 'LEAD_CONTACT', leadId };
}

/** The lead item's attribute holding its email lower-cased, as its claim names it: a condition compares the two. */
export const EMAIL_KEY = 'emailKey';

/** The attribute a lead item carries exactly while it has the contact, with its value as the claim names it. */
export function contactAttribute(contact: LeadContact): [name: string, value: string] {
  return contact.kind === 'EMAIL' ? [EMAIL_KEY, contact.value] : ['phone', contact.value];
}

/**
 * The names a lead is found by: its first and last names together ("olivia ngu"), which every prefix of its first
 * name also starts, and its last name alone; each once.
 */
export function nameKeysOf({ firstName, lastName }: Pick<Lead, 'firstName' | 'lastName'>): string[] {
  const names = [[firstName, lastName].filter(Boolean).join(' '), lastName ?? ''].map(searchKey);
  return [...new Set(names.filter(Boolean))];
}

/**
 * A lead's name item: the lead's id, and its status, company and assignee so a search filtered by them is answered
 * from the name items alone (a change of any of them rewrites them in its transaction).
 */
export function toLeadNameItem(organizationId: string, name: string, lead: Pick<Lead, 'id' | (typeof LEAD_COUNTER_FIELDS)[number]>) {
  return { ...leadKeys.leadName(organizationId, name, lead.id), entity: 'LEAD_NAME', leadId: lead.id, status: lead.status, companyId: lead.companyId, assignedMemberId: lead.assignedMemberId };
}

/** A lead, as the audit log names it (GET /v1/audit-log). */
export const leadAudit: AuditedRecord = { entity: 'LEAD', resourceType: 'lead' };

/** An activity on a lead's timeline (a note, a status change), as the audit log names it (GET /v1/audit-log). */
export const activityAudit: AuditedRecord = { entity: 'ACTIVITY', resourceType: 'activity' };

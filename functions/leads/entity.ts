import * as v from 'valibot';
import { Lead, LeadActivity } from './schema';
import { changeLogKey } from '../../shared/store/keys';
import { organizationPartition, pad, SAMPLE_ORGANIZATION_ID, searchKey, type Collection, type Key, type KeySamples } from '../../shared/store/keys';
import { shardCounters } from '../../shared/store/counter-shards';
import type { AuditedRecord } from '../../shared/resource';

const org = organizationPartition;

export const leadKeys = {
  lead: (o: string, leadId: string): Key => ({ pk: org(o), sk: `LEAD#${leadId}` }),
  leads: (o: string): Collection => ({ pk: org(o), skPrefix: 'LEAD#' }),
  /**
   * The lead list indexes: by status (gsi2), by company (gsi3) and by both (gsi4), sort key the lead id
   * (a ULID, so newest first). A lead without a company has no gsi3/gsi4 keys.
   */
  leadIndexes: (o: string, lead: { id: string; status: string; companyId: string | null }) => ({
    gsi2pk: `${org(o)}#LEADS#STATUS#${lead.status}`,
    gsi2sk: lead.id,
    ...(lead.companyId
      ? {
          gsi3pk: `${org(o)}#LEADS#COMPANY#${lead.companyId}`,
          gsi3sk: lead.id,
          gsi4pk: `${org(o)}#LEADS#COMPANY#${lead.companyId}#STATUS#${lead.status}`,
          gsi4sk: lead.id,
        }
      : {}),
  }),
  /** gsi5: the organization's leads by email, lower-cased, newest first: how an ingested inquiry finds its lead. */
  leadEmailIndex: (o: string, lead: { id: string; email: string }) => ({ gsi5pk: `${org(o)}#LEADS#EMAIL#${lead.email.toLowerCase()}`, gsi5sk: lead.id }),
  /** The lead that last took a contact (EMAIL or PHONE), so concurrent ingestions for a new contact create one lead. */
  leadContact: (o: string, kind: 'EMAIL' | 'PHONE', value: string): Key => ({ pk: org(o), sk: `LEADCONTACT#${kind}#${value}` }),
  /** gsi1: the organization's leads by phone (E.164), newest first: how an inbound SMS finds its lead. */
  leadPhoneIndex: (o: string, lead: { id: string; phone: string }) => ({ gsi1pk: `${org(o)}#LEADS#PHONE#${lead.phone}`, gsi1sk: lead.id }),
  /**
   * One item per name a lead is searched by (its first name, last name and both together, read by `searchKey`), in
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
  /**
   * A phone that replied STOP: no SMS goes to it, whichever lead holds it, until it replies START. Written with the
   * lead's phone (`smsOptOutWrite` in ./store), which the SMS resource calls for a STOP or START.
   */
  smsOptOut: (o: string, phone: string): Key => ({ pk: org(o), sk: `SMSOPTOUT#${phone}` }),
  /**
   * A company item's key: the companies resource's item (its entity maps it), kept here because a lead's write
   * checks that its companyId is one of the organization's companies, and the companies resource already uses
   * leads (its demo data links leads to companies), so leads cannot import it.
   */
  company: (o: string, companyId: string): Key => ({ pk: org(o), sk: `COMPANY#${companyId}` }),
  /**
   * The organization's own item (the organization resource maps it): a phone search reads its timezone for the
   * national form of its numbers. Kept here as `company` is: the organization resource uses leads (its counts).
   */
  organizationRecord: (o: string): Key => ({ pk: org(o), sk: 'ORGANIZATION' }),
} as const;

/** The change logs (updatedSince) of the leads and of one lead's activities. */
export const LEAD_CHANGES = 'LEADS';
export const activityChanges = (leadId: string) => `ACTIVITIES#${leadId}`;

/** The names of the leads' counter items (`COUNT#<name>`), kept in step with their collection in the same transaction. */
export const leadCounterNames = {
  /** One counter per lead list filter combination, so every filtered totalCount is one read. */
  leads: ({ status, companyId }: { status?: string; companyId?: string | null } = {}) =>
    ['LEADS', ...(companyId ? [`COMPANY#${companyId}`] : []), ...(status ? [`STATUS#${status}`] : [])].join('#'),
  activities: (leadId: string) => `ACTIVITIES#${leadId}`,
} as const;

// Every lead create of a busy organization writes the list's counters (all leads, and its status's): they may shard.
shardCounters(/^LEADS(#STATUS#[A-Z_]+)?$/);

const O = SAMPLE_ORGANIZATION_ID;

export const leadKeySamples: KeySamples<typeof leadKeys> = {
  lead: () => leadKeys.lead(O, 'lead_1'),
  leads: () => leadKeys.leads(O),
  leadIndexes: () => leadKeys.leadIndexes(O, { id: 'lead_1', status: 'NEW', companyId: 'company_1' }),
  leadEmailIndex: () => leadKeys.leadEmailIndex(O, { id: 'lead_1', email: 'Jane@Example.com' }),
  leadContact: () => leadKeys.leadContact(O, 'EMAIL', 'jane@example.com'),
  leadPhoneIndex: () => leadKeys.leadPhoneIndex(O, { id: 'lead_1', phone: '+61412345678' }),
  leadName: () => leadKeys.leadName(O, 'Zoë', 'lead_1'),
  leadNames: () => leadKeys.leadNames(O, 'zo'),
  activity: () => leadKeys.activity(O, 'lead_1', { id: 1, updatedAt: '2026-11-20T09:00:00.000Z' }),
  activities: () => leadKeys.activities(O, 'lead_1'),
  smsOptOut: () => leadKeys.smsOptOut(O, '+61412345678'),
  company: () => leadKeys.company(O, 'company_1'),
  organizationRecord: () => leadKeys.organizationRecord(O),
};

/** What a lead is found by: its email, lower-cased as gsi5 keys it, or its phone. */
export interface LeadContact {
  kind: 'EMAIL' | 'PHONE';
  value: string;
}

export function toLeadItem(organizationId: string, lead: Lead) {
  return {
    ...leadKeys.lead(organizationId, lead.id),
    ...leadKeys.leadIndexes(organizationId, lead),
    ...(lead.phone ? leadKeys.leadPhoneIndex(organizationId, { id: lead.id, phone: lead.phone }) : {}),
    ...(lead.email ? leadKeys.leadEmailIndex(organizationId, { id: lead.id, email: lead.email }) : {}),
    ...changeLogKey(organizationId, LEAD_CHANGES),
    entity: 'LEAD',
    organizationId,
    ...lead,
  };
}

/** The schema keeps the lead's own fields, in documented order, and drops keys and bookkeeping. */
export const fromLeadItem = (item: Record<string, unknown>): Lead => v.parse(Lead, item);

export function toActivityItem(organizationId: string, activity: LeadActivity) {
  return { ...leadKeys.activity(organizationId, activity.leadId, activity), ...changeLogKey(organizationId, activityChanges(activity.leadId)), entity: 'ACTIVITY', ...activity };
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

/** The index attribute a lead item carries exactly while it has the contact, so a condition can test for it. */
export function contactIndexAttribute(organizationId: string, contact: LeadContact): [name: string, value: string] {
  return contact.kind === 'EMAIL'
    ? ['gsi5pk', leadKeys.leadEmailIndex(organizationId, { id: '', email: contact.value }).gsi5pk]
    : ['gsi1pk', leadKeys.leadPhoneIndex(organizationId, { id: '', phone: contact.value }).gsi1pk];
}

/** The names a lead is found by: its first name, its last name, and the two together ("olivia ngu"), each once. */
export function nameKeysOf({ firstName, lastName }: Pick<Lead, 'firstName' | 'lastName'>): string[] {
  const names = [firstName, lastName, firstName && lastName ? `${firstName} ${lastName}` : null].filter((name): name is string => !!name).map(searchKey);
  return [...new Set(names.filter(Boolean))];
}

/**
 * A lead's name item: the lead's id, and its status and company so a search filtered by them is answered from the
 * name items alone (a status or company change rewrites them in its transaction).
 */
export function toLeadNameItem(organizationId: string, name: string, lead: Pick<Lead, 'id' | 'status' | 'companyId'>) {
  return { ...leadKeys.leadName(organizationId, name, lead.id), entity: 'LEAD_NAME', leadId: lead.id, status: lead.status, companyId: lead.companyId };
}

/** A lead, as the audit log names it (GET /v1/audit-log). */
export const leadAudit: AuditedRecord = { entity: 'LEAD', resourceType: 'lead' };

/** An activity on a lead's timeline (a note, a status change), as the audit log names it (GET /v1/audit-log). */
export const activityAudit: AuditedRecord = { entity: 'ACTIVITY', resourceType: 'activity' };

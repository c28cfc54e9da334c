import * as v from 'valibot';
import { Lead, LeadActivity } from './schema';
import { keys } from '../../shared/store/keys';

/** What a lead is found by: its email, lower-cased as gsi5 keys it, or its phone. */
export interface LeadContact {
  kind: 'EMAIL' | 'PHONE';
  value: string;
}

export function toLeadItem(organizationId: string, lead: Lead) {
  return {
    ...keys.lead(organizationId, lead.id),
    ...keys.leadIndexes(organizationId, lead),
    ...(lead.phone ? keys.leadPhoneIndex(organizationId, { id: lead.id, phone: lead.phone }) : {}),
    ...(lead.email ? keys.leadEmailIndex(organizationId, { id: lead.id, email: lead.email }) : {}),
    entity: 'LEAD',
    organizationId,
    ...lead,
  };
}

/** The schema keeps the lead's own fields, in documented order, and drops keys and bookkeeping. */
export const fromLeadItem = (item: Record<string, unknown>): Lead => v.parse(Lead, item);

export function toActivityItem(organizationId: string, activity: LeadActivity) {
  return { ...keys.activity(organizationId, activity.leadId, activity.id), entity: 'ACTIVITY', ...activity };
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
  return { ...keys.leadContact(organizationId, contact.kind, contact.value), entity: 'LEAD_CONTACT', leadId };
}

/** The index attribute a lead item carries exactly while it has the contact, so a condition can test for it. */
export function contactIndexAttribute(organizationId: string, contact: LeadContact): [name: string, value: string] {
  return contact.kind === 'EMAIL'
    ? ['gsi5pk', keys.leadEmailIndex(organizationId, { id: '', email: contact.value }).gsi5pk]
    : ['gsi1pk', keys.leadPhoneIndex(organizationId, { id: '', phone: contact.value }).gsi1pk];
}

import { toActivityItem } from '../entities/lead';
import { counterNames, keys } from '../entities/keys';
import { newId } from '../ids';
import { createInquiry, findInquiryByExternalId, inquiryListItem, type NewInquiry } from '../repositories/inquiries';
import { ACTIVITY_SEQUENCE, findLeadByEmail, findLeadByPhone, getLead, insertLeadWithActivity, leadOfContact } from '../repositories/leads';
import { counterUpdate } from '../repositories/counters';
import { reserveIds } from '../repositories/sequences';
import { insertIfAbsent, type TransactWrite } from '../repositories/transact';
import type { IngestInquiryBody, InquirySender } from '../schemas/ingestion';
import type { InquiryListItem } from '../schemas/inquiries';
import type { Lead } from '../schemas/leads';
import { newLead } from './leads';

/** The inquiry's external id was recorded by a concurrent request first. */
class ExternalIdTaken extends Error {}
/** Another ingestion created the lead for this contact first. */
class ContactTaken extends Error {}

/** The contact a new lead is created under: its email (lower-cased), else its phone. */
const contactOf = (sender: InquirySender) => (sender.email ? { kind: 'EMAIL' as const, value: sender.email.toLowerCase() } : { kind: 'PHONE' as const, value: sender.phone! });

/**
 * The organization's lead with this email (any case), else with this phone, else a new one with its
 * LEAD_CREATED activity. Concurrent ingestions for one new contact create one lead: the creation claims the
 * contact in its transaction, and the losers read the winner's lead.
 */
async function findOrCreateLead(organizationId: string, sender: InquirySender, at: Date): Promise<Lead> {
  const found = (sender.email && (await findLeadByEmail(organizationId, sender.email))) || (sender.phone && (await findLeadByPhone(organizationId, sender.phone)));
  if (found) return found;
  const lead = newLead({ email: sender.email ?? null, phone: sender.phone, name: sender.name, firstName: sender.firstName, lastName: sender.lastName }, newId('lead', at), at.toISOString());
  const contact = contactOf(sender);
  const activityId = await reserveIds(organizationId, ACTIVITY_SEQUENCE);
  const created = { id: activityId, event: 'LEAD_CREATED', data: `Lead created from an inquiry`, referenceId: null, userId: null, leadId: lead.id, createdAt: lead.createdAt };
  const claim = insertIfAbsent({ ...keys.leadContact(organizationId, contact.kind, contact.value), entity: 'LEAD_CONTACT', leadId: lead.id }, () => new ContactTaken());
  return insertLeadWithActivity(organizationId, lead, created, [claim]).then(
    () => lead,
    async (error: unknown) => {
      if (!(error instanceof ContactTaken)) throw error;
      const winner = await leadOfContact(organizationId, contact.kind, contact.value);
      const lead = winner && (await getLead(organizationId, winner));
      if (!lead) throw error;
      return lead;
    },
  );
}

/**
 * Records an inquiry pushed by an integration: the lead found or created, then the inquiry with its source
 * record, the lead's unread count and latest inquiry, an INQUIRY_RECEIVED activity and the counters in one
 * transaction. An externalInquiryId seen before (per source) answers the first inquiry and writes nothing.
 */
export async function ingestInquiry(organizationId: string, body: IngestInquiryBody): Promise<{ inquiry: InquiryListItem; created: boolean }> {
  const { source, externalInquiryId } = body;
  if (externalInquiryId) {
    const first = await findInquiryByExternalId(organizationId, source, externalInquiryId);
    if (first) return { inquiry: first, created: false };
  }
  const at = body.createdAt ? new Date(body.createdAt) : new Date();
  const lead = await findOrCreateLead(organizationId, body.lead, new Date());
  const inquiryId = newId('inquiry', at);
  const activityId = await reserveIds(organizationId, ACTIVITY_SEQUENCE);
  const alsoWrite: TransactWrite[] = [
    insertIfAbsent(toActivityItem(organizationId, { id: activityId, event: 'INQUIRY_RECEIVED', data: `${source} inquiry received`, referenceId: inquiryId, userId: null, leadId: lead.id, createdAt: at.toISOString() })),
    counterUpdate(organizationId, counterNames.activities(lead.id), 1),
    ...(externalInquiryId ? [insertIfAbsent({ ...keys.externalInquiry(organizationId, source, externalInquiryId), entity: 'EXTERNAL_INQUIRY', inquiryId }, () => new ExternalIdTaken())] : []),
  ];
  const summary = body.summary ?? defaultSummary(body);
  try {
    const record = await createInquiry(
      organizationId,
      { id: inquiryId, source, leadId: lead.id, tag: body.tag, summary, isRead: false, externalInquiryId: externalInquiryId ?? null, createdAt: at.toISOString(), data: withIds(body, at) } as NewInquiry,
      { lastInquiryId: lead.lastInquiryId, lastInquiryDate: lead.lastInquiryDate },
      alsoWrite,
    );
    return { inquiry: inquiryListItem(record), created: true };
  } catch (error) {
    if (!(error instanceof ExternalIdTaken)) throw error;
    const first = await findInquiryByExternalId(organizationId, source, externalInquiryId!);
    if (!first) throw error;
    return { inquiry: first, created: false };
  }
}

/** The record with the ids the service issues: the call's and its transcript lines', a chat's messages'. */
function withIds(body: IngestInquiryBody, at: Date) {
  if (body.source === 'CALL') {
    const id = newId('call', at);
    return { ...body.data, id, transcripts: body.data.transcripts.map((line, index) => ({ id: `${id}-t${String(index + 1).padStart(2, '0')}`, ...line })) };
  }
  if (body.source === 'CHATBOT') return { ...body.data, messages: body.data.messages.map((message) => ({ id: newId('chatmsg', new Date(message.createdAt)), ...message })) };
  return body.data;
}

/** A summary when the sender gave none: the record's own (a call's), its subject, or its source. */
function defaultSummary(body: IngestInquiryBody): string {
  const text = body.source === 'CALL' ? body.data.summary : body.source === 'EMAIL' ? body.data.subject : '';
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return trimmed ? [...trimmed].slice(0, 500).join('') : `${body.source[0]}${body.source.slice(1).toLowerCase()} inquiry`;
}

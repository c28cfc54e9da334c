import { contactsOf, hasContact, leadCounterNames, toActivityItem } from '../leads/entity';
import { inquiryKeys } from './entity';
import { newId, newIdAt, now, requestTime } from '#shared/ids';
import { createInquiry, findInquiryByExternalId, inquiryListItem, type NewInquiry } from './store';
import { ACTIVITY_SEQUENCE, getLead, holderOfFirst, insertLeadOrFindHolders, lookUpAgain, type HeldContact } from '../leads/store';
import { retryOnStaleWrite } from '#shared/store/versioned';
import { counterUpdate } from '#shared/store/counters';
import { takeId } from '#shared/store/sequences';
import { insertIfAbsent, type TransactWrite } from '#shared/store/transact';
import type { IngestInquiryBody, InquirySender } from './ingestion-schema';
import type { InquiryListItem } from './schema';
import { newLead } from '../leads/rules';
import { withPhoneRead } from '../leads/phones';
import { callSummaryFields } from './call-outcome';

/** The inquiry's external id was recorded by a concurrent request first. */
class ExternalIdTaken extends Error {}

/** The contacts a sender gives, email first, as the lookup goes. */
const contactsOfSender = (sender: InquirySender) => contactsOf({ email: sender.email ?? null, phone: sender.phone ?? null });

/**
 * The organization's lead with this email (any case), else with this phone, else a new one with its
 * LEAD_CREATED activity. Concurrent ingestions for one new contact create one lead: the creation claims the
 * lead's contacts in its transaction, and the losers read the winner's lead. A claim whose lead was deleted or
 * no longer has the contact is stale, counts as absent, and is taken over in the creating transaction.
 */
async function findOrCreateLead(organizationId: string, sender: InquirySender, at: Date): Promise<HeldContact> {
  const contacts = contactsOfSender(sender);
  const found = await holderOfFirst(organizationId, contacts);
  if (found) return found;
  const lead = newLead({ email: sender.email ?? null, phone: sender.phone, name: sender.name, firstName: sender.firstName, lastName: sender.lastName }, newId('lead', at), at.toISOString(), 'lead.name');
  const activityId = await takeId(organizationId, ACTIVITY_SEQUENCE);
  const created = { id: activityId, event: 'LEAD_CREATED', data: `Lead created from an inquiry`, referenceId: null, userId: null, leadId: lead.id, createdAt: lead.createdAt, updatedAt: lead.updatedAt };
  const result = await insertLeadOrFindHolders(organizationId, lead, created);
  // Email first, as the lookup goes.
  return 'held' in result ? result.held[0]! : { contact: contacts[0]!, holder: result.lead };
}

/**
 * Where a post came from, when not from a holder of the organization's key: a public inbound URL (its endpoint id),
 * which anyone who has the page may post to.
 */
export interface IngestSource {
  publicEndpointId?: string;
}

/**
 * Records an inquiry pushed by an integration: the lead found or created, then the inquiry with its source
 * record, the lead's unread count and latest inquiry, an INQUIRY_RECEIVED activity and the counters in one
 * transaction, on condition that the lead still has the contact it was found by: a lead deleted or giving it up
 * meanwhile makes the lookup run again. An externalInquiryId seen before (per source) answers the first inquiry and
 * writes nothing. A public URL's external ids are its own, and a repeat is answered with the first inquiry only when
 * it comes from the contact it was recorded for: from anyone else it is recorded as an inquiry of its own, without
 * the id, so a URL that takes posts never hands back another sender's.
 */
export async function ingestInquiry(organizationId: string, sent: IngestInquiryBody, from: IngestSource = {}): Promise<{ inquiry: InquiryListItem; created: boolean }> {
  const body = { ...sent, lead: await withPhoneRead(organizationId, sent.lead, 'lead.phone') };
  const { source } = body;
  const claimed = body.externalInquiryId && (from.publicEndpointId ? `${from.publicEndpointId}#${body.externalInquiryId}` : body.externalInquiryId);
  /** Whether this post may be answered with the inquiry recorded first under its id. */
  const mayRepeat = async (first: InquiryListItem) => !from.publicEndpointId || (await sentBy(organizationId, first, body.lead));
  const first = claimed ? await findInquiryByExternalId(organizationId, source, claimed) : undefined;
  if (first && (await mayRepeat(first))) return { inquiry: first, created: false };
  // An id another sender's inquiry holds: this post is recorded on its own, without it.
  const externalInquiryId = first ? undefined : body.externalInquiryId;
  // The id is a ULID of createdAt, in a keyed request too, so createdSince (a range of ids) finds it by that time.
  const at = body.createdAt ? new Date(body.createdAt) : requestTime();
  const inquiryId = body.createdAt ? newIdAt('inquiry', at) : newId('inquiry', at);
  const summary = body.summary ?? defaultSummary(body);
  const data = withIds(body, at);
  const call = body.source === 'CALL' ? await callSummaryFields(organizationId, body.data) : undefined;
  return retryOnStaleWrite(async () => {
    const { contact, holder: lead } = await findOrCreateLead(organizationId, body.lead, new Date());
    const activityId = await takeId(organizationId, ACTIVITY_SEQUENCE);
    const alsoWrite: TransactWrite[] = [
      insertIfAbsent(toActivityItem(organizationId, { id: activityId, event: 'INQUIRY_RECEIVED', data: `${source} inquiry received`, referenceId: inquiryId, userId: null, leadId: lead.id, createdAt: at.toISOString(), updatedAt: now() })),
      counterUpdate(organizationId, leadCounterNames.activities(lead.id), 1),
      ...(externalInquiryId ? [insertIfAbsent({ ...inquiryKeys.externalInquiry(organizationId, source, claimed!), entity: 'EXTERNAL_INQUIRY', inquiryId }, () => new ExternalIdTaken())] : []),
    ];
    try {
      const record = await createInquiry(
        organizationId,
        { id: inquiryId, source, leadId: lead.id, tag: body.tag, summary, isRead: false, externalInquiryId: externalInquiryId ?? null, createdAt: at.toISOString(), data, call } as NewInquiry,
        { lastInquiryId: lead.lastInquiryId, lastInquiryDate: lead.lastInquiryDate, holds: contact },
        alsoWrite,
      );
      return { inquiry: inquiryListItem(record), created: true };
    } catch (error) {
      if (!(error instanceof ExternalIdTaken)) lookUpAgain(error);
      // A concurrent post took the id first: answered as a repeat, or, from another sender, recorded on its own.
      const taken = await findInquiryByExternalId(organizationId, source, claimed!);
      if (!taken) throw error;
      if (await mayRepeat(taken)) return { inquiry: taken, created: false };
      return ingestInquiry(organizationId, { ...body, externalInquiryId: undefined }, from);
    }
  });
}

/** Whether the inquiry's lead has one of the sender's contacts: the same sender, retrying. */
async function sentBy(organizationId: string, inquiry: InquiryListItem, sender: InquirySender): Promise<boolean> {
  const lead = await getLead(organizationId, inquiry.leadId);
  return lead !== undefined && contactsOfSender(sender).some((contact) => hasContact(lead, contact));
}

/**
 * The record with the ids the service issues: the call's and its transcript lines', a chat's messages'. A call keeps
 * the transcript lines its record holds (fitTranscript), and says so when some were left out.
 */
function withIds(body: IngestInquiryBody, at: Date) {
  if (body.source === 'CALL') {
    const id = newId('call', at);
    const lines = body.data.transcripts.map((line, index) => ({ id: `${id}-t${String(index + 1).padStart(2, '0')}`, ...line }));
    const record = { ...body.data, id, transcripts: [] };
    const transcripts = fitTranscript(record, lines);
    return { ...record, transcripts, transcriptTruncated: body.data.transcriptTruncated || transcripts.length < lines.length };
  }
  if (body.source === 'CHATBOT') return { ...body.data, messages: body.data.messages.map((message) => ({ id: newId('chatmsg', new Date(message.createdAt)), ...message })) };
  return body.data;
}

/** DynamoDB's item size limit, and what the SOURCE item holds beside its record (keys, entity, source), with room to spare. */
const ITEM_BYTES = 400 * 1024;
const SOURCE_ITEM_KEYS_BYTES = 1024;

/** A value's size as JSON in UTF-8: never less than DynamoDB counts for it (names and values, a few bytes per element). */
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * The first lines of a call's transcript that its record's item holds: a long call (a platform's payload may carry
 * megabytes) is kept with its summary, numbers and times and the start of what was said, where the whole record would
 * pass DynamoDB's item limit and the call be lost.
 */
function fitTranscript<L>(record: object, lines: readonly L[]): L[] {
  let room = ITEM_BYTES - SOURCE_ITEM_KEYS_BYTES - jsonBytes(record);
  const kept: L[] = [];
  for (const line of lines) {
    // The line and the comma before it.
    room -= jsonBytes(line) + 1;
    if (room < 0) break;
    kept.push(line);
  }
  return kept;
}

/** A summary when the sender gave none: the record's own (a call's), its subject, or its source. */
function defaultSummary(body: IngestInquiryBody): string {
  const text = body.source === 'CALL' ? body.data.summary : body.source === 'EMAIL' ? body.data.subject : '';
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return trimmed ? [...trimmed].slice(0, 500).join('') : `${body.source[0]}${body.source.slice(1).toLowerCase()} inquiry`;
}

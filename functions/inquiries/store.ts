import type { LeadSummary } from '../leads/summaries';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import {
  fromInquiryCollection,
  fromInquiryItem,
  inquiryCounterNames,
  inquiryKeys,
  smsCounterNames,
  toInquiryItem,
  toInquirySourceItem,
  toSmsMessageItem,
  toThreadItem,
  toConversationItem,
  type InquiryRecord,
  type StoredSourceData,
} from './entity';
import { leadKeys } from '../leads/entity';
import { NotFoundError } from '#shared/errors';
import { newId, now } from '#shared/ids';
import {
  FLAGGING_TAGS,
  type Inquiry,
  type InquiryDataBySource,
  type InquiryExpansion,
  type InquiryListItem,
  type InquirySource,
  type InquiryTag,
  type SmsData,
  type SmsMessage,
} from './schema';
import { counterSet, counterUpdate, readCounter } from '#shared/store/counters';

import { queryAll } from '#shared/store/query-page';
import { insertIfAbsent, transact, type TransactWrite } from '#shared/store/transact';
import { setFields } from '#shared/store/update-fields';
import { retryOnStaleWrite, StaleWrite } from '#shared/store/versioned';
import type { CallSummaryFields } from './call-outcome';
import { inquiryLeadEffects, leadUpdate, type InquiryLeadEffects, readLeadInquiryState, UNREAD_COUNT, type LeadChangesWithInquiry, type LeadInquiryState } from './lead-update';

export type { LeadChangesWithInquiry, LeadInquiryState } from './lead-update';

/** Kind prefix of a source record's id; an SMS inquiry's source record is its message thread. */
const SOURCE_ID_KIND: Record<InquirySource, string> = { CALL: 'call', EMAIL: 'email', CHATBOT: 'chat', SMS: 'thread', WEBFORM: 'webform' };

/**
 * TransactWriteItems takes 100 items; an SMS inquiry's fixed items (lead, inquiry, source, thread, 7 counters, up to
 * 8 SMS counters) and what its caller adds leave room for these.
 */
export const MAX_SMS_MESSAGES_PER_CREATE = 78;

/**
 * What new messages of one thread write beside themselves: the SMS counters they move (all, per status, per lead, per
 * thread), one write per counter, and their lead's conversation, put whole with the latest of them.
 */
export function smsMessageEffects(organizationId: string, { leadId, threadId, inquiryId }: { leadId: string; threadId: string; inquiryId: string }, messages: readonly SmsMessage[]): TransactWrite[] {
  const moves = new Map<string, number>();
  for (const { status } of messages) {
    for (const name of [smsCounterNames.messages(), smsCounterNames.messages({ status }), smsCounterNames.messages({ leadId }), smsCounterNames.messages({ threadId })]) moves.set(name, (moves.get(name) ?? 0) + 1);
  }
  const conversation: TransactWrite[] = messages.length > 0 ? [{ item: { Put: { TableName: config.tableName, Item: toConversationItem(organizationId, { leadId, inquiryId }, messages) } } }] : [];
  return [...[...moves].map(([name, by]) => counterUpdate(organizationId, name, by)), ...conversation];
}

type WithOptionalId<T extends { id: string }> = Omit<T, 'id'> & { id?: string };

export type NewInquiry = { [S in InquirySource]: { source: S; data: WithOptionalId<InquiryDataBySource[S]> } }[InquirySource] & {
  /** A ULID of createdAt unless given (when another write of the transaction refers to it). */
  id?: string;
  leadId: string;
  tag: InquiryTag;
  summary: string;
  isRead: boolean;
  externalInquiryId?: string | null;
  /** Now when absent; the inquiry id is a ULID of this time, so lists sort by it. */
  createdAt?: string;
  /** A CALL inquiry's outcome and what the reports read of the call. */
  call?: CallSummaryFields;
};

/** The counters of the lists the inquiry appears under whatever its read state: all, its source's, its lead's, its call outcome's. */
function inquiryCounters({ leadId, source, callOutcome }: InquiryRecord): string[] {
  return [inquiryCounterNames.inquiries(), inquiryCounterNames.inquiries({ source }), inquiryCounterNames.inquiries({ leadId }), ...(callOutcome ? [inquiryCounterNames.inquiries({ callOutcome })] : [])];
}

/** The counters of the lists the inquiry appears under in its read state (`isRead`): all, its source's, its call outcome's. */
export function readStateCounters({ source, callOutcome }: Pick<InquiryRecord, 'source' | 'callOutcome'>, isRead: boolean): string[] {
  return [inquiryCounterNames.inquiries({ isRead }), inquiryCounterNames.inquiries({ source, isRead }), ...(callOutcome ? [inquiryCounterNames.inquiries({ callOutcome, isRead })] : [])];
}

/**
 * An inquiry read, or unread again: its item moves between the read-state index partitions (`isRead` the new state),
 * and the counters of both states move by one. The caller conditions the write on the state it read.
 */
export function readStateMove(organizationId: string, inquiry: Pick<InquiryRecord, 'id' | 'source' | 'callOutcome'>, isRead: boolean): { indexKeys: Record<string, string>; counters: TransactWrite[] } {
  return {
    indexKeys: inquiryKeys.inquiryReadStateIndexes(organizationId, { ...inquiry, isRead }),
    counters: [...readStateCounters(inquiry, isRead).map((name) => counterUpdate(organizationId, name, 1)), ...readStateCounters(inquiry, !isRead).map((name) => counterUpdate(organizationId, name, -1))],
  };
}

/**
 * Who at the organization opened an SMS inquiry by texting first: an automation (its message names the run) or a
 * member. Kept on the INQUIRY item for the reports, answered by no read. An inquiry without it was started by the lead
 * (a text, a call, a form, an email, a chat), or, for a call, by whoever its `callDirection` says called.
 */
export type InquiryStartedBy = 'MEMBER' | 'AUTOMATION';

function startedBy(source: InquirySource, data: InquiryDataBySource[InquirySource]): { startedBy?: InquiryStartedBy } {
  const first = source === 'SMS' ? ((data as SmsData).messages[0] as (SmsMessage & { automationRunId?: string }) | undefined) : undefined;
  if (first?.direction !== 'OUTBOUND') return {};
  return { startedBy: first.automationRunId ? 'AUTOMATION' : 'MEMBER' };
}

function inquiryWrites(organizationId: string, inquiry: InquiryRecord, data: InquiryDataBySource[InquirySource], lead: LeadInquiryState, leadChanges?: LeadChangesWithInquiry, call?: CallSummaryFields): TransactWrite[] {
  return [leadUpdate(organizationId, inquiry, lead, leadChanges), ...inquiryItemWrites(organizationId, inquiry, data, call)];
}

/** The inquiry's own items and counters: all its writes but its lead's. */
function inquiryItemWrites(organizationId: string, inquiry: InquiryRecord, data: InquiryDataBySource[InquirySource], call?: CallSummaryFields): TransactWrite[] {
  // The outcome is a field of the record; the rest, and who started it, only the reports read.
  const { callOutcome: _outcome, ...callFields }: Partial<CallSummaryFields> = call ?? {};
  const internal = { ...callFields, ...startedBy(inquiry.source, data) };
  const writes: TransactWrite[] = [insertIfAbsent(toInquiryItem(organizationId, inquiry, internal))];
  if (inquiry.source === 'SMS') {
    const { messages, ...thread } = data as SmsData;
    writes.push(
      insertIfAbsent(toInquirySourceItem(organizationId, inquiry.id, 'SMS', thread)),
      insertIfAbsent(toThreadItem(organizationId, { threadId: thread.id, leadId: inquiry.leadId, inquiryId: inquiry.id, createdAt: inquiry.createdAt })),
      ...messages.map((message) => insertIfAbsent(toSmsMessageItem(organizationId, { inquiryId: inquiry.id, threadId: thread.id, leadId: inquiry.leadId }, message))),
      ...smsMessageEffects(organizationId, { leadId: inquiry.leadId, threadId: thread.id, inquiryId: inquiry.id }, messages),
    );
  } else {
    writes.push(insertIfAbsent(toInquirySourceItem(organizationId, inquiry.id, inquiry.source, data as StoredSourceData)));
  }
  const flagged = FLAGGING_TAGS.includes(inquiry.tag) ? [counterUpdate(organizationId, inquiryCounterNames.flaggedInquiries(inquiry.leadId), 1)] : [];
  const counted = [...inquiryCounters(inquiry), ...readStateCounters(inquiry, inquiry.isRead)];
  return [...writes, ...flagged, ...counted.map((name) => counterUpdate(organizationId, name, 1))];
}

/**
 * An inquiry of any source with its source record (for SMS: its thread and messages), the three list
 * counters and the lead's lastInquiry, unread count and flag, in one transaction. `lead` saves the
 * read when the caller has just read it; a concurrent inquiry for the same lead makes it read again.
 */
export async function createInquiry(organizationId: string, input: NewInquiry, lead?: LeadInquiryState, alsoWrite: TransactWrite[] = [], leadChanges?: LeadChangesWithInquiry): Promise<InquiryRecord> {
  if (input.source === 'SMS' && input.data.messages.length > MAX_SMS_MESSAGES_PER_CREATE) {
    throw new Error(`An SMS inquiry is created with at most ${MAX_SMS_MESSAGES_PER_CREATE} messages`);
  }
  const { id, createdAt, data } = identified(input);
  // A concurrent inquiry for the same lead makes the next attempt read again (and recompute isFirstInquiry);
  // a lead deleted meanwhile makes that read answer 404, or LeadLostContact for a lead found by a contact.
  return retryOnStaleWrite(async (attempt) => {
    const known = attempt === 1 && lead ? lead : await readLeadInquiryState(organizationId, input.leadId, lead?.holds);
    const inquiry = inquiryRecord(input, { id, createdAt, data }, known.lastInquiryId === null);
    await transact([...inquiryWrites(organizationId, inquiry, data, known, leadChanges, input.call), ...alsoWrite]);
    return inquiry;
  });
}

/** The inquiry's id, time and source record with its id: given, or now and ULIDs of that time. */
function identified(input: NewInquiry): { id: string; createdAt: string; data: InquiryDataBySource[InquirySource] } {
  const createdAt = input.createdAt ?? now();
  const at = new Date(createdAt);
  const data = { ...input.data, id: input.data.id ?? newId(SOURCE_ID_KIND[input.source], at) } as InquiryDataBySource[InquirySource];
  return { id: input.id ?? newId('inquiry', at), createdAt, data };
}

/** The inquiry as recorded, the first of its lead or not. */
function inquiryRecord(input: NewInquiry, { id, createdAt, data }: ReturnType<typeof identified>, isFirstInquiry: boolean): InquiryRecord {
  return {
    id,
    source: input.source,
    sourceId: data.id,
    tag: input.tag,
    summary: input.summary,
    callOutcome: input.call?.callOutcome ?? null,
    isFirstInquiry,
    isRead: input.isRead,
    leadId: input.leadId,
    createdAt,
    // The time it is written, not a createdAt the sender gave: a poller past that time still finds it.
    updatedAt: now(),
    externalInquiryId: input.externalInquiryId ?? null,
  };
}

/** What a lead created with its first inquiry holds of it: what `leadUpdate` moves on a lead that exists. */
export type FirstInquiryFields = InquiryLeadEffects['set'] & InquiryLeadEffects['add'];

/**
 * The first inquiry of a lead written in the same transaction as the lead (an SMS from a phone no lead has): the
 * inquiry (`isFirstInquiry`), its writes but the lead's, and the fields the lead is created with in their place, as
 * `leadUpdate` would have moved them. One transaction may write an item only once, so the lead's own item carries
 * them from the start.
 */
export function firstInquiryOfNewLead(organizationId: string, input: NewInquiry): { inquiry: InquiryRecord; leadFields: FirstInquiryFields; writes: TransactWrite[] } {
  const identity = identified(input);
  const inquiry = inquiryRecord(input, identity, true);
  const { set, add } = inquiryLeadEffects(inquiry, true);
  const leadFields: FirstInquiryFields = { ...set, ...add };
  return { inquiry, leadFields, writes: inquiryItemWrites(organizationId, inquiry, identity.data, input.call) };
}

/** The list item of a record: its id in the source system with expand=external|both, its lead with expand=lead|both. */
export function toListItem({ externalInquiryId, ...inquiry }: InquiryRecord, expand: InquiryExpansion | undefined, leads?: Map<string, LeadSummary>): InquiryListItem {
  return {
    ...inquiry,
    ...(expand === 'external' || expand === 'both' ? { externalInquiryId } : {}),
    ...(leads ? { lead: leads.get(inquiry.leadId) ?? null } : {}),
  };
}

/** One Query of the inquiry's item collection: the summary, its source record and any SMS messages. */
export async function getInquiry(organizationId: string, inquiryId: string): Promise<Inquiry> {
  const inquiry = fromInquiryCollection(await queryAll(inquiryKeys.inquiryCollection(organizationId, inquiryId)));
  if (!inquiry) throw new NotFoundError('Inquiry not found');
  return inquiry;
}

/** An inquiry as lists show it, with its leadId. */
export const inquiryListItem = (record: InquiryRecord): InquiryListItem => toListItem(record, undefined);

/** The inquiry an integration sent before under this external id (per source), if any. */
export async function findInquiryByExternalId(organizationId: string, source: InquirySource, externalId: string): Promise<InquiryListItem | undefined> {
  const { Item: claim } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: inquiryKeys.externalInquiry(organizationId, source, externalId), ConsistentRead: true }));
  if (!claim) return undefined;
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: inquiryKeys.inquiry(organizationId, String(claim.inquiryId)), ConsistentRead: true }));
  return Item && inquiryListItem(fromInquiryItem(Item));
}

/** The inquiry changed between our read and our write. */
class InquiryChanged extends StaleWrite {}

export interface InquiryChanges {
  isRead?: boolean;
  tag?: InquiryTag;
}

/**
 * Marks an inquiry read or unread and retags it, keeping its lead right in the same transaction: the unread
 * count of its source moves by one, and hasFlaggedInquiry follows the lead's count of flagged inquiries.
 * Each write is conditioned on what was read, so concurrent changes are read again.
 */
export async function changeInquiry(organizationId: string, inquiryId: string, changes: InquiryChanges): Promise<InquiryListItem> {
  return retryOnStaleWrite(async () => {
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: inquiryKeys.inquiry(organizationId, inquiryId), ConsistentRead: true }));
    if (!Item) throw new NotFoundError('Inquiry not found');
    const current = fromInquiryItem(Item);
    const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)), updatedAt: now() } as InquiryRecord;
    const unreadDelta = current.isRead === next.isRead ? 0 : next.isRead ? -1 : 1;
    const flagDelta = Number(FLAGGING_TAGS.includes(next.tag)) - Number(FLAGGING_TAGS.includes(current.tag));
    const changed = () => new InquiryChanged(`Inquiry ${inquiryId} changed while it was updated`);
    const moved = unreadDelta === 0 ? undefined : readStateMove(organizationId, current, next.isRead);
    const writes: TransactWrite[] = [
      setFields(inquiryKeys.inquiry(organizationId, inquiryId), { isRead: next.isRead, tag: next.tag, updatedAt: next.updatedAt, ...moved?.indexKeys }, {
        condition: { expression: 'isRead = :wasRead AND tag = :wasTag', values: { ':wasRead': current.isRead, ':wasTag': current.tag } },
        onConditionFailed: changed,
      }),
      ...(moved?.counters ?? []),
    ];
    const leadKey = leadKeys.lead(organizationId, current.leadId);
    const leadSets: string[] = [];
    const leadValues: Record<string, unknown> = {};
    if (unreadDelta !== 0) {
      leadSets.push(`${UNREAD_COUNT[current.source]} = if_not_exists(${UNREAD_COUNT[current.source]}, :zero) + :unread`);
      Object.assign(leadValues, { ':unread': unreadDelta, ':zero': 0 });
    }
    if (flagDelta !== 0) {
      const seen = await readCounter(organizationId, inquiryCounterNames.flaggedInquiries(current.leadId));
      const count = Math.max(0, (seen ?? 0) + flagDelta);
      writes.push(counterSet(organizationId, inquiryCounterNames.flaggedInquiries(current.leadId), seen, count, changed));
      leadSets.push('hasFlaggedInquiry = :flagged');
      leadValues[':flagged'] = count > 0;
    }
    // A deleted lead keeps its inquiries; only a lead that exists is updated.
    const leadExists = leadSets.length > 0 && (await readLeadInquiryState(organizationId, current.leadId).then(() => true, () => false));
    if (leadExists) {
      leadSets.push('updatedAt = :updatedAt');
      leadValues[':updatedAt'] = now();
      writes.push({
        item: { Update: { TableName: config.tableName, Key: leadKey, UpdateExpression: `SET ${leadSets.join(', ')}`, ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: leadValues } },
        onConditionFailed: changed,
      });
    }
    await transact(writes);
    return toListItem(next, undefined);
  });
}

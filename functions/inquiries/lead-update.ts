import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { NotFoundError } from '#shared/errors';
import { now } from '#shared/ids';
import type { TransactWrite } from '#shared/store/transact';
import { StaleWrite } from '#shared/store/versioned';
import { contactAttribute, leadKeys, type LeadContact } from '../leads/entity';
import { LeadLostContact } from '../leads/store';
import type { InquiryRecord } from './entity';
import { FLAGGING_TAGS, type InquirySource } from './schema';

// What recording an inquiry reads and writes of its lead, in the inquiry's transaction (store.ts, createInquiry).

/** The lead's unread count an unread inquiry of each source adds to. */
export const UNREAD_COUNT = {
  CALL: 'unreadCalls',
  EMAIL: 'unreadEmails',
  CHATBOT: 'unreadChatbotThreads',
  SMS: 'unreadSMS',
  WEBFORM: 'unreadWebformSubmissions',
} as const satisfies Record<InquirySource, string>;

/** What an inquiry moves on its lead (inquiryLeadEffects): fields it sets, and unread counts it adds to. */
export interface InquiryLeadEffects {
  set: { lastInquiryId?: string; lastInquiryDate?: string; hasFlaggedInquiry?: true };
  add: Partial<Record<(typeof UNREAD_COUNT)[InquirySource], number>>;
}

/**
 * What creating an inquiry must know of its lead: that it exists, and its latest inquiry; and, for a lead found by a
 * contact, that contact, which the lead must still have when the inquiry is written.
 */
export interface LeadInquiryState {
  lastInquiryId: string | null;
  lastInquiryDate: string | null;
  holds?: LeadContact;
}

/** What else an inquiry changes on its lead, in the same write: an SMS reply of STOP or START its opt-out. */
export interface LeadChangesWithInquiry {
  smsOptedOut?: boolean;
}

/** The lead's latest inquiry moved between our read and our write. */
class LeadChanged extends StaleWrite {}

/**
 * Whether the inquiry is the lead's latest: by time, and within one millisecond by id, the order lists use,
 * so concurrent inquiries leave the same latest one whichever transaction commits last.
 */
function isLater(inquiry: InquiryRecord, { lastInquiryId, lastInquiryDate }: LeadInquiryState): boolean {
  if (lastInquiryDate === null || inquiry.createdAt > lastInquiryDate) return true;
  return inquiry.createdAt === lastInquiryDate && inquiry.id > (lastInquiryId ?? '');
}

/**
 * What an inquiry moves on its lead: the fields it sets (itself as the latest inquiry when it is, the flag of a
 * flagging tag) and the unread count it adds one to. A lead created with its first inquiry is written with them.
 */
export function inquiryLeadEffects(inquiry: InquiryRecord, isLatest: boolean): InquiryLeadEffects {
  return {
    set: { ...(isLatest ? { lastInquiryId: inquiry.id, lastInquiryDate: inquiry.createdAt } : {}), ...(FLAGGING_TAGS.includes(inquiry.tag) ? { hasFlaggedInquiry: true as const } : {}) },
    add: inquiry.isRead ? {} : { [UNREAD_COUNT[inquiry.source]]: 1 },
  };
}

/**
 * Moves the lead's lastInquiry forward (never back, for back-dated imports), counts the inquiry as
 * unread, flags the lead, on condition that the lead exists and its latest inquiry still stands as read: none
 * (that keeps isFirstInquiry true for exactly one inquiry of a lead), or earlier than this one, or later.
 */
export function leadUpdate(organizationId: string, inquiry: InquiryRecord, lead: LeadInquiryState, leadChanges: LeadChangesWithInquiry = {}): TransactWrite {
  const sets: string[] = [];
  const adds: string[] = [];
  const values: Record<string, unknown> = {};
  if (leadChanges.smsOptedOut !== undefined) {
    sets.push('smsOptedOut = :smsOptedOut');
    values[':smsOptedOut'] = leadChanges.smsOptedOut;
  }
  const latest = isLater(inquiry, lead);
  const effects = inquiryLeadEffects(inquiry, latest);
  for (const [name, value] of Object.entries(effects.set)) {
    sets.push(`${name} = :${name}`);
    values[`:${name}`] = value;
  }
  for (const [name, value] of Object.entries(effects.add)) {
    adds.push(`${name} :${name}`);
    values[`:${name}`] = value;
  }
  // Whatever the inquiry changes on its lead, it changed now: the time of its lead.updated event.
  if (sets.length || adds.length) {
    sets.push('updatedAt = :updatedAt');
    values[':updatedAt'] = now();
  }
  // What the write needs of the lead's latest inquiry is only what it decided on, and each holds for good once true
  // (a lead's latest inquiry only moves later): none yet (this one is the first); one earlier than this (this one
  // becomes the latest); one later (this one leaves it). Concurrent inquiries of one lead then retry at most twice,
  // not once per inquiry that landed before them.
  const unchanged =
    lead.lastInquiryId === null
      ? '(attribute_not_exists(lastInquiryId) OR attribute_type(lastInquiryId, :nullType))'
      : latest
        ? '(lastInquiryDate < :date OR (lastInquiryDate = :date AND lastInquiryId < :id))'
        : '(lastInquiryDate > :date OR (lastInquiryDate = :date AND lastInquiryId > :id))';
  const [contactName, contactValue] = lead.holds ? contactAttribute(lead.holds) : [];
  const check = {
    TableName: config.tableName,
    Key: leadKeys.lead(organizationId, inquiry.leadId),
    ConditionExpression: `attribute_exists(pk) AND ${unchanged}${contactName ? ' AND #holds = :holds' : ''}`,
    ...(contactName ? { ExpressionAttributeNames: { '#holds': contactName } } : {}),
  };
  const conditionValues = { ...(lead.lastInquiryId === null ? { ':nullType': 'NULL' } : { ':date': inquiry.createdAt, ':id': inquiry.id }), ...(contactName ? { ':holds': contactValue } : {}) };
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : ''].filter(Boolean).join(' ');
  const onConditionFailed = () => new LeadChanged(`Lead ${inquiry.leadId} kept changing while inquiry ${inquiry.id} was recorded`);
  if (!expression) return { item: { ConditionCheck: { ...check, ExpressionAttributeValues: conditionValues } }, onConditionFailed };
  return { item: { Update: { ...check, UpdateExpression: expression, ExpressionAttributeValues: { ...values, ...conditionValues } } }, onConditionFailed };
}

/** The lead's latest inquiry; with `holds`, LeadLostContact unless the lead exists and still has that contact. */
export async function readLeadInquiryState(organizationId: string, leadId: string, holds?: LeadContact): Promise<LeadInquiryState> {
  const [contactName, contactValue] = holds ? contactAttribute(holds) : [];
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: config.tableName,
      Key: leadKeys.lead(organizationId, leadId),
      ProjectionExpression: `pk, lastInquiryId, lastInquiryDate${contactName ? ', #holds' : ''}`,
      ...(contactName ? { ExpressionAttributeNames: { '#holds': contactName } } : {}),
      ConsistentRead: true,
    }),
  );
  if (holds && Item?.[contactName!] !== contactValue) throw new LeadLostContact();
  if (!Item) throw new NotFoundError('Lead not found');
  return { lastInquiryId: (Item.lastInquiryId as string | null) ?? null, lastInquiryDate: (Item.lastInquiryDate as string | null) ?? null, holds };
}

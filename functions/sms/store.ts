import { SMS_CHANGES, fromThreadItem, inquiryKeys, SMS_AWAITING_SHARDS, smsCounterNames, smsMessageRefOf, toSmsMessageItem, type SmsThread } from '../inquiries/entity';
import { fromLeadItem, leadKeys } from '../leads/entity';
import { organizationKeys } from '../organization/entity';
import { fromSmsItem, smsKeys } from './entity';
import { fromUserLookupItem, memberKeys, type UserLookup } from '../organization/member-entity';
import type { SmsMessage } from '../inquiries/schema';
import type { Lead } from '../leads/schema';
import { fromOrganizationItem } from '../organization/schema';
import { batchGetItems } from '#shared/store/batch-get';
import { smsMessageEffects } from '../inquiries/store';
import { GetCommand, paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { BadRequestError, NotFoundError } from '#shared/errors';
import type { SmsStatus } from '../inquiries/schema';
import { insertIfAbsent, requireExisting, transact, writeAlone, type TransactWrite } from '#shared/store/transact';
import { counterUpdate } from '#shared/store/counters';
import { countedPage, type PageSource } from '#shared/store/query-page';
import { changeLogKey, changesPage } from '#shared/store/change-log';
import { pageOfFiltered } from '#shared/store/match-page';
import type { Page } from '#shared/pagination';
import type { ListSmsQuery, Sms } from './schema';
import { TTL_ATTRIBUTE } from '#shared/table';
import { setFields } from '#shared/store/update-fields';

export interface SmsParties {
  lead?: Lead;
  user?: UserLookup;
  thread?: SmsThread;
  /** The organization's smsSenderId (what the lead sees the SMS come from, and where replies return); null: the stack's default. */
  senderId: string | null;
}

/** The lead, the sending user (none for an automation's), the organization and (when given) the thread, in one consistent BatchGetItem. */
export async function readSmsParties(organizationId: string, { leadId, userId, threadId }: { leadId: string; userId?: string; threadId?: string }): Promise<SmsParties> {
  const leadKey = leadKeys.lead(organizationId, leadId);
  const userKey = userId === undefined ? undefined : memberKeys.user(organizationId, userId);
  const organizationKey = organizationKeys.organization(organizationId);
  const threadKey = threadId === undefined ? undefined : inquiryKeys.thread(organizationId, threadId);
  const items = await batchGetItems([leadKey, organizationKey, ...[userKey, threadKey].filter((key) => key !== undefined)], { consistentRead: true });
  const bySk = new Map(items.map((item) => [item.sk as string, item]));
  const lead = bySk.get(leadKey.sk);
  const user = userKey && bySk.get(userKey.sk);
  const organization = bySk.get(organizationKey.sk);
  const thread = threadKey && bySk.get(threadKey.sk);
  return {
    lead: lead && fromLeadItem(lead),
    user: user && fromUserLookupItem(user),
    thread: thread ? fromThreadItem(thread) : undefined,
    senderId: organization ? fromOrganizationItem(organization).smsSenderId : null,
  };
}

/** The lead replied STOP: nothing is recorded or sent until they reply START. */
export const optedOut = () => new BadRequestError('leadId: the lead replied STOP and has opted out of SMS until they reply START', 'OPTED_OUT');

/**
 * The check, in the transaction that records an outbound SMS, that its phone has not opted out: the phone's
 * opt-out outlives its leads, and a STOP recorded after the lead was read still stops the send.
 */
export function phoneNotOptedOut(organizationId: string, phone: string): TransactWrite {
  return { item: { ConditionCheck: { TableName: config.tableName, Key: leadKeys.smsOptOut(organizationId, phone), ConditionExpression: 'attribute_not_exists(pk)' } }, onConditionFailed: optedOut };
}

/**
 * A thread's inquiry shows its messages and their statuses, so a message added or moved moves the inquiry's updatedAt
 * (and its place in the change log) too: a poller of `updatedSince` sees the thread change.
 */
const threadChangedAt = (organizationId: string, inquiryId: string, at: string): TransactWrite =>
  setFields(inquiryKeys.inquiry(organizationId, inquiryId), { updatedAt: at }, { onConditionFailed: () => new NotFoundError('Inquiry not found') });

/** Adds a message to an existing thread, on condition that its lead still exists (a lead deleted meanwhile: 404, nothing recorded), its phone has not opted out and its send has not given it up; `also` in the same transaction. */
export async function appendSmsMessage(organizationId: string, thread: SmsThread, message: SmsMessage, phone: string, also: readonly TransactWrite[] = []): Promise<void> {
  await transact([
    requireExisting(leadKeys.lead(organizationId, thread.leadId), () => new NotFoundError('Lead not found')),
    insertIfAbsent(toSmsMessageItem(organizationId, thread, message)),
    ...smsMessageEffects(organizationId, thread, [message]),
    phoneNotOptedOut(organizationId, phone),
    smsNotAbandoned(organizationId, message.id),
    threadChangedAt(organizationId, thread.inquiryId, message.createdAt),
    ...also,
  ]);
}

/** The message's send gave it up (`abandonSms`): only a write of it still in flight meets this. */
export class SmsAbandoned extends Error {}

/** The check, in the transaction that records an outbound SMS, that its send has not given it up. */
export function smsNotAbandoned(organizationId: string, messageId: string): TransactWrite {
  return { item: { ConditionCheck: { TableName: config.tableName, Key: smsKeys.abandonedSms(organizationId, messageId), ConditionExpression: 'attribute_not_exists(pk)' } }, onConditionFailed: () => new SmsAbandoned() };
}

/** Kept far past any write in flight (the SDK gives a call seconds), then expired. */
export const ABANDONED_DAYS = 1;

/**
 * Gives up recording an outbound message whose writes failed without an answer: one of them may still land, and
 * after this none can, as each checks this mark is absent. Whether one landed first, a read of the message then says.
 */
export async function abandonSms(organizationId: string, messageId: string): Promise<void> {
  const expires = Math.floor(Date.now() / 1000) + ABANDONED_DAYS * 86_400;
  await writeAlone({ item: { Put: { TableName: config.tableName, Item: { ...smsKeys.abandonedSms(organizationId, messageId), entity: 'ABANDONED_SMS', [TTL_ATTRIBUTE]: expires } } } });
}

/**
 * Takes back the give-up mark of a message whose request is being attempted again (its Idempotency-Key's claim outlived
 * the attempt that gave it up, so the same ids): every write of it is that request's own, so one landing late is met
 * by the new attempt as its own record rather than refused.
 */
export async function takeBackAbandoned(organizationId: string, messageId: string): Promise<void> {
  await writeAlone({ item: { Delete: { TableName: config.tableName, Key: smsKeys.abandonedSms(organizationId, messageId) } } });
}

/**
 * The SMS thread most recently started with the lead: where a reply from them goes. The newest SMS inquiry of the
 * lead's inquiries (one Query of its index partition, newest first, filtered: a lead has tens of inquiries).
 */
export async function latestThreadOf(organizationId: string, leadId: string): Promise<(SmsThread & { isRead: boolean }) | undefined> {
  const { gsi3pk } = inquiryKeys.inquiryIndexes(organizationId, { id: '', leadId, source: 'SMS' });
  const query = {
    TableName: config.tableName,
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    FilterExpression: '#source = :sms',
    ExpressionAttributeNames: { '#source': 'source' },
    ExpressionAttributeValues: { ':pk': gsi3pk, ':sms': 'SMS' },
    ScanIndexForward: false,
  };
  let inquiry: Record<string, unknown> | undefined;
  for await (const page of paginateQuery({ client: dynamo }, query)) if ((inquiry = page.Items?.[0])) break;
  return inquiry ? { threadId: String(inquiry.sourceId), leadId, inquiryId: String(inquiry.id), createdAt: String(inquiry.createdAt), isRead: inquiry.isRead === true } : undefined;
}

/**
 * Moves a message from one status to the next, on condition that it is still in `from`: the send's answer moves
 * it from QUEUED (to SENT, or FAILED when refused), a carrier's receipt from SENT. So a status never moves back,
 * with one exception: `fromUnconfirmedFailure` moves a FAILED message whose send the provider never confirmed
 * (marked `unconfirmed`), for a receipt that proves it left, and clears its failure. Answers the time it wrote (the
 * message's and its thread's updatedAt); undefined when the message does not exist or is not in `from`.
 */
export async function moveSmsStatus(
  organizationId: string,
  inquiryId: string,
  messageId: string,
  from: SmsStatus,
  status: SmsStatus,
  details: { providerMessageId?: string; failureReason?: string; unconfirmed?: true } = {},
  { fromUnconfirmedFailure = false } = {},
): Promise<string | undefined> {
  const at = new Date().toISOString();
  const extra = Object.entries(details).filter(([, value]) => value !== undefined);
  const confirming = from === 'FAILED' && fromUnconfirmedFailure;
  const { gsi3pk } = inquiryKeys.smsMessageIndexes(organizationId, { id: messageId, status, leadId: '', threadId: '' });
  const sets = extra.map(([name]) => (name === 'providerMessageId' ? `, ${name} = if_not_exists(${name}, :${name})` : `, ${name} = :${name}`)).join('');
  const removed = [...(confirming ? ['unconfirmed', 'failureReason'] : []), ...(from === 'QUEUED' ? ['gsi1pk', 'gsi1sk'] : [])];
  const move: TransactWrite = {
    item: {
      Update: {
        TableName: config.tableName,
        Key: inquiryKeys.inquiryMessage(organizationId, inquiryId, messageId),
        // The provider's id is kept as first recorded (by the send, or a receipt that came first).
        // updatedAt (outside the API's message) is when its sms.<status> event occurred. The status index (gsi3)
        // moves with the status. The first move out of QUEUED also takes the message out of the sweep's index
        // (smsAwaitingProvider).
        UpdateExpression: `SET #status = :status, updatedAt = :updatedAt, gsi3pk = :statusPartition${sets}${removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(pk) AND #status = :from${confirming ? ' AND unconfirmed = :unconfirmed' : ''}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': status,
          ':updatedAt': at,
          ':statusPartition': gsi3pk,
          ':from': from,
          ...(confirming ? { ':unconfirmed': true } : {}),
          ...Object.fromEntries(extra.map(([name, value]) => [`:${name}`, value])),
        },
      },
    },
    onConditionFailed: () => new NotInStatus(),
  };
  // The status counters move with the status, in the same transaction, so a status's totalCount stays exact.
  return transact([
    move,
    counterUpdate(organizationId, smsCounterNames.messages({ status: from }), -1),
    counterUpdate(organizationId, smsCounterNames.messages({ status }), 1),
    threadChangedAt(organizationId, inquiryId, at),
  ]).then(
    () => at,
    (error: unknown) => {
      if (error instanceof NotInStatus) return undefined;
      throw error;
    },
  );
}

/** The message is missing, or not in the status a move starts from. */
class NotInStatus extends Error {}

/**
 * Outbound SMS recorded QUEUED before `recordedBefore` that no provider answer has moved since, oldest first:
 * one Query per partition of their index, each page at most `limit` messages.
 */
export async function smsAwaitingProviderSince(recordedBefore: string, limit = 100): Promise<Array<{ organizationId: string; inquiryId: string; messageId: string }>> {
  const pages = await Promise.all(
    Array.from({ length: SMS_AWAITING_SHARDS }, async (_, shard) => {
      const { Items = [] } = await dynamo.send(
        new QueryCommand({
          TableName: config.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
          ExpressionAttributeValues: { ':pk': inquiryKeys.smsAwaitingProvider(shard).gsi1pk, ':before': recordedBefore },
          ProjectionExpression: 'pk, sk',
          Limit: limit,
        }),
      );
      return Items.map(smsMessageRefOf);
    }),
  );
  return pages.flat();
}

/** An index partition of the SMS lists: every message, or a status's, lead's or thread's (`smsMessageIndexes`). */
function smsListSource(organizationId: string, by: 'all' | 'status' | 'lead' | 'thread', { status, leadId = '', messageThreadId = '' }: Partial<ListSmsQuery> = {}): PageSource {
  const indexes = inquiryKeys.smsMessageIndexes(organizationId, { id: '', status: status ?? '', leadId, threadId: messageThreadId });
  if (by === 'status') return { index: 'gsi3', pk: indexes.gsi3pk };
  if (by === 'lead') return { index: 'gsi4', pk: indexes.gsi4pk };
  if (by === 'thread') return { index: 'gsi5', pk: indexes.gsi5pk };
  return { index: 'gsi2', pk: indexes.gsi2pk };
}

/** One SMS message by its id: one Query of the organization's messages index at that id. */
export async function getSms(organizationId: string, smsId: string): Promise<Sms | undefined> {
  const { pk } = smsListSource(organizationId, 'all');
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: config.tableName, IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk = :id', ExpressionAttributeValues: { ':pk': pk, ':id': smsId }, Limit: 1 }),
  );
  return Items?.[0] && fromSmsItem(Items[0]);
}

/** A message of a known thread, read by its key (one consistent GetItem): the send reads back what a receipt left. */
export async function getThreadMessage(organizationId: string, inquiryId: string, messageId: string): Promise<Sms | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: inquiryKeys.inquiryMessage(organizationId, inquiryId, messageId), ConsistentRead: true }));
  return Item && fromSmsItem(Item);
}

/**
 * A page of the organization's SMS messages, newest first. No filter, one filter, or a lead's or thread's messages
 * of one status: a single filter is its own index partition with its own counter (one Query and one counter read);
 * two filters read the lead's or thread's messages whole and keep those that match, so `totalCount` is exact
 * without a counter per combination (a lead has tens of messages, not thousands).
 */
export async function listSmsPage(organizationId: string, query: ListSmsQuery): Promise<Page<Sms>> {
  const { page, limit, cursor, status, leadId, messageThreadId, updatedSince } = query;
  if (updatedSince !== undefined) {
    const log = { partition: changeLogKey(organizationId, SMS_CHANGES).gsi6pk, filters: { status, leadId, messageThreadId } };
    const { items, totalCount, nextCursor } = await changesPage(updatedSince, log, { page, limit, cursor });
    return { items: items.map(fromSmsItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
  }
  const filters = [status, leadId, messageThreadId].filter((filter) => filter !== undefined).length;
  if (filters > 1) {
    const source = smsListSource(organizationId, messageThreadId ? 'thread' : 'lead', query);
    const keep = (item: Record<string, unknown>) => (status === undefined || item.status === status) && (leadId === undefined || item.leadId === leadId);
    const { items, totalCount, nextCursor } = await pageOfFiltered(source, keep, `status=${status ?? ''}&leadId=${leadId ?? ''}`, { page, limit, cursor });
    return { items: items.map(fromSmsItem), totalCount, page, limit, nextCursor };
  }
  const by = messageThreadId ? 'thread' : leadId ? 'lead' : status ? 'status' : 'all';
  const counter = smsCounterNames.messages({ status, leadId, threadId: messageThreadId });
  const { items, totalCount, nextCursor } = await countedPage(smsListSource(organizationId, by, query), organizationId, counter, { page, limit, cursor });
  return { items: items.map(fromSmsItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
}


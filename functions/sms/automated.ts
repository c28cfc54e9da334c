import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { clock } from '#shared/clock';
import { ApiError, NotFoundError, ServiceUnavailableError } from '#shared/errors';
import { conditionNotHeld, deleteIfStill, insertIfAbsent, transact, writeAlone, writeAloneWhereHolds, type TransactWrite } from '#shared/store/transact';
import { setFields, type Condition } from '#shared/store/update-fields';
import { batchGetItems } from '#shared/store/batch-get';
import { newId } from '#shared/ids';
import { logger } from '#shared/observability';
import type { Key } from '#shared/store/keys';
import type { DynamoAction } from '#shared/routes/route';
import type { IndexName } from '#shared/table';
import { fromMemberItem, memberKeys } from '../organization/member-entity';
import { organizationKeys } from '../organization/entity';
import { fromOrganizationItem } from '../organization/schema';
import { TTL_ATTRIBUTE } from '#shared/table';
import { smsKeys } from './entity';
import { recordAndSend, threadIdsOf, type OutboundMessage } from './rules';
import { SmsDeliveryError, smsSender } from './sender';
import { ABANDONED_DAYS, getThreadMessage, latestThreadOf, readSmsParties, SmsAbandoned } from './store';
import type { Sms } from './schema';

export interface AutomatedSms {
  organizationId: string;
  leadId: string;
  /** Derived from the run and its step, so a step run twice finds its own message and never sends a second. */
  messageId: string;
  body: string;
  automationRunId: string;
  /** Written in the same transaction as the message's record; a failed condition answers `refused` with its `refusal`. */
  also?: readonly { write: TransactWrite; refusal: string }[];
}

export type AutomatedSmsOutcome =
  | { sent: true; smsId: string; status: string }
  /**
   * Nothing was sent: `OPTED_OUT`, `LEAD_NOT_FOUND`, `NO_PHONE`, an `also` write's refusal, or `NOT_RECORDED` (the
   * store did not take the record in time; called again a minute or more later, it records and sends). With `smsId`, the message is recorded: `FAILED` (the
   * provider refused it) or `NOT_CONFIRMED` (the provider never answered, or an earlier call recorded it and no
   * answer of the provider's is recorded yet).
   */
  | { sent: false; refusal: string; smsId?: string };

/**
 * What a function calling sendAutomatedSms or notifyMember reads and writes: the lead, the organization and the member
 * in one BatchGetItem, the lead's latest thread (its inquiries, gsi3), the records and markers (GetItem), and the
 * record's transaction; with the `smsSender` capability (functions/sms/capability.ts) to reach the provider.
 */
export const AUTOMATED_SMS_ACCESS = { dynamodb: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: ['gsi3'] } satisfies { dynamodb: DynamoAction[]; indexes: IndexName[] };

/** How long the record of an automation's message id, or a member's notification marker, is kept: far past any redelivery of its step. */
const AUTOMATED_SMS_DAYS = 30;

/** The expiry attribute of such a record made at `madeAtMs`. */
export const automatedRecordExpiry = (madeAtMs: number) => ({ [TTL_ATTRIBUTE]: Math.floor(madeAtMs / 1000) + AUTOMATED_SMS_DAYS * 86_400 });

/** An `also` write whose condition failed: nothing was recorded. */
class Refused extends Error {
  constructor(readonly refusal: string) {
    super(refusal);
  }
}

/** The id's record was taken by another call: that call sends it. */
class RecordedElsewhere extends Error {}

const refused = (refusal: string, smsId?: string): AutomatedSmsOutcome => ({ sent: false, refusal, ...(smsId ? { smsId } : {}) });

/** A recorded message as the outcome of the step that sent it: sent once its provider took it. */
function outcomeOf(sms: Pick<Sms, 'id' | 'status'>): AutomatedSmsOutcome {
  if (sms.status === 'FAILED') return refused('FAILED', sms.id);
  if (sms.status === 'QUEUED') return refused('NOT_CONFIRMED', sms.id);
  return { sent: true, smsId: sms.id, status: sms.status };
}

/** The record of an automation's message id: where the message is, and which call wrote it. */
async function automatedRecordOf(organizationId: string, messageId: string): Promise<{ inquiryId: string; writtenBy: string } | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: smsKeys.automatedSms(organizationId, messageId), ConsistentRead: true }));
  return Item && { inquiryId: String(Item.inquiryId), writtenBy: String(Item.writtenBy) };
}

/** The message an earlier call recorded under this id, as it stands now. */
async function recordedEarlier(organizationId: string, messageId: string): Promise<AutomatedSmsOutcome | undefined> {
  const record = await automatedRecordOf(organizationId, messageId);
  if (!record) return undefined;
  const sms = await getThreadMessage(organizationId, record.inquiryId, messageId);
  return sms ? outcomeOf(sms) : refused('NOT_CONFIRMED', messageId);
}

/** What a refusal in recording or sending means to the step; anything else (the store failing) is thrown, to be tried again. */
function refusalOf(error: unknown, messageId: string): AutomatedSmsOutcome {
  if (error instanceof Refused) return refused(error.refusal);
  if (error instanceof SmsDeliveryError) return refused(error.unconfirmed ? 'NOT_CONFIRMED' : 'FAILED', messageId);
  if (error instanceof ServiceUnavailableError || error instanceof SmsAbandoned) return refused('NOT_RECORDED');
  if (error instanceof NotFoundError) return refused('LEAD_NOT_FOUND');
  if (error instanceof ApiError && error.code === 'OPTED_OUT') return refused('OPTED_OUT');
  throw error;
}

/** Past this, no write of a call that gave an id up can still land (the SDK gives a call seconds): a later call may take the id back. */
const GIVEN_UP_SETTLED_MS = 60_000;

/**
 * Takes back an id an earlier call gave up (its store did not answer in time: `NOT_RECORDED`) once that is long enough
 * ago, so the step run again later records and sends it rather than stay refused for the mark's day. False: given up
 * too recently, or not given up.
 */
async function takeBackGivenUp(organizationId: string, messageId: string): Promise<boolean> {
  const latestExpiry = Math.floor((Date.now() - GIVEN_UP_SETTLED_MS) / 1000) + ABANDONED_DAYS * 86_400;
  const givenUpLongEnoughAgo: Condition = { expression: '#expires <= :latest', names: { '#expires': TTL_ATTRIBUTE }, values: { ':latest': latestExpiry } };
  return writeAloneWhereHolds(deleteIfStill(smsKeys.abandonedSms(organizationId, messageId), givenUpLongEnoughAgo, conditionNotHeld));
}

/**
 * Records the message (once: an existing record with this id is answered as it stands, the provider not called
 * again) and sends it through the organization's sender, as POST /v1/sms does: thread, receipts and opt-out apply.
 * It joins the lead's latest thread, where their replies go, or opens one. Beside the message, the transaction puts a
 * record of its id (with a token of this call): a twin call finds it taken and sends nothing, while this call, its
 * answer lost, knows the record for its own.
 */
export async function sendAutomatedSms(sms: AutomatedSms): Promise<AutomatedSmsOutcome> {
  const { organizationId, leadId, messageId, automationRunId } = sms;
  const earlier = await recordedEarlier(organizationId, messageId);
  if (earlier) return earlier;
  const { lead, senderId } = await readSmsParties(organizationId, { leadId });
  if (!lead) return refused('LEAD_NOT_FOUND');
  if (!lead.phone) return refused('NO_PHONE');
  if (lead.smsOptedOut) return refused('OPTED_OUT');

  const thread = await latestThreadOf(organizationId, leadId);
  const createdAt = new Date(clock.now());
  const ids = threadIdsOf(thread, createdAt);
  const message: OutboundMessage = { id: messageId, direction: 'OUTBOUND', status: 'QUEUED', body: sms.body, userId: null, createdAt: createdAt.toISOString(), automationRunId };
  const writtenBy = randomUUID();
  const record = insertIfAbsent({ ...smsKeys.automatedSms(organizationId, messageId), entity: 'AUTOMATED_SMS', inquiryId: ids.inquiryId, writtenBy, ...automatedRecordExpiry(createdAt.getTime()) }, () => new RecordedElsewhere());
  const also = (sms.also ?? []).map(({ write, refusal }): TransactWrite => ({ item: write.item, onConditionFailed: () => new Refused(refusal) }));
  const recordedByThis = () => automatedRecordOf(organizationId, messageId).then((found) => found?.writtenBy === writtenBy, () => false);
  try {
    const { sms: sent } = await recordAndSend({ organizationId, lead, phone: lead.phone, thread, ...ids, senderId, message, also: [record, ...also], recordedByThis });
    // The provider took it: sent, though its SENT mark may not be written yet (QUEUED).
    return { sent: true, smsId: sent.id, status: sent.status };
  } catch (error) {
    if (error instanceof SmsDeliveryError) return refusalOf(error, messageId);
    if (error instanceof SmsAbandoned && (await takeBackGivenUp(organizationId, messageId))) return sendAutomatedSms(sms);
    // Another call recorded this id meanwhile (its record, or its message in the same thread, met this one's): that
    // call sends, this one answers what it recorded.
    return (await recordedEarlier(organizationId, messageId)) ?? refusalOf(error, messageId);
  }
}

/** Where a member's notification stands: taken before the provider is called, SENT once it took it. */
type NotificationStatus = 'SENDING' | 'SENT' | 'FAILED';

async function notificationOf(markerKey: Key): Promise<{ status: NotificationStatus; messageId: string } | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: markerKey, ConsistentRead: true }));
  return Item && { status: Item.status as NotificationStatus, messageId: String(Item.messageId) };
}

/** A notification found marked: sent, refused, or taken by a call whose send was never confirmed (never sent again). */
function notifiedOutcome({ status, messageId }: { status: NotificationStatus; messageId: string }): AutomatedSmsOutcome {
  if (status === 'SENT') return { sent: true, smsId: messageId, status };
  return refused(status === 'FAILED' ? 'FAILED' : 'NOT_CONFIRMED', messageId);
}

/** The member (its phone) and the organization's sender, in one consistent read. */
async function memberAndSender(organizationId: string, memberId: number) {
  const [memberKey, organizationKey] = [memberKeys.member(organizationId, memberId), organizationKeys.organization(organizationId)];
  const items = await batchGetItems([memberKey, organizationKey], { consistentRead: true });
  const member = items.find((item) => item.sk === memberKey.sk);
  const organization = items.find((item) => item.sk === organizationKey.sk);
  return { member: member && fromMemberItem(member), senderId: organization ? fromOrganizationItem(organization).smsSenderId : null };
}

/** Puts a notification's marker if absent, with the writes that go with it (all or none); false when it was there. */
async function claimNotification(claim: Key & Record<string, unknown>, also: readonly { write: TransactWrite; refusal: string }[]): Promise<boolean> {
  if (also.length === 0) return writeAloneWhereHolds(insertIfAbsent(claim, conditionNotHeld));
  const marker = insertIfAbsent(claim, () => new RecordedElsewhere());
  return transact([marker, ...also.map(({ write, refusal }): TransactWrite => ({ item: write.item, onConditionFailed: () => new Refused(refusal) }))]).then(
    () => true,
    (error: unknown) => {
      if (error instanceof RecordedElsewhere) return false;
      throw error;
    },
  );
}

const markNotification = (markerKey: Key, status: NotificationStatus, details: Record<string, string> = {}) =>
  writeAlone(setFields(markerKey, { status, ...details }, { onConditionFailed: () => new Error('member notification marker missing') }));

/**
 * A text to one of the organization's members (e.g. "Missed call from …"), from the organization's sender; `markerKey`
 * makes it at most once. The marker is put SENDING before the provider is called and SENT after: a call that finds it
 * SENDING (an earlier one stopped before the provider's answer was recorded) answers `NOT_CONFIRMED` and never texts
 * again. It is no lead's message: no thread or SMS record, and its receipts move nothing. `smsId` is the id the
 * provider carries. `also` is written in one transaction with the marker's put (the member's count of texts that day):
 * its condition failing answers its refusal, nothing marked or sent. Refusals: `MEMBER_NOT_FOUND`, `NO_PHONE`,
 * `MEMBER_DISABLED`, `FAILED`, `NOT_CONFIRMED`, an `also` write's.
 */
export async function notifyMember(notification: {
  organizationId: string;
  memberId: number;
  body: string;
  markerKey: { pk: string; sk: string };
  also?: readonly { write: TransactWrite; refusal: string }[];
}): Promise<AutomatedSmsOutcome> {
  const { organizationId, memberId, body, markerKey, also = [] } = notification;
  const earlier = await notificationOf(markerKey);
  if (earlier) return notifiedOutcome(earlier);
  const { member, senderId } = await memberAndSender(organizationId, memberId);
  if (!member) return refused('MEMBER_NOT_FOUND');
  if (!member.phone) return refused('NO_PHONE');
  if (member.isDisabled) return refused('MEMBER_DISABLED');

  const createdAt = new Date(clock.now()).toISOString();
  const messageId = newId('message', new Date(createdAt));
  const claim = { ...markerKey, entity: 'MEMBER_NOTIFICATION', status: 'SENDING', messageId, memberId, createdAt, ...automatedRecordExpiry(Date.parse(createdAt)) };
  // Not taken: another call has it, unless the put landed and only its answer was lost (then the marker is this call's).
  const claimed = await claimNotification(claim, also).catch((error: unknown) => (error instanceof Refused ? error : Promise.reject(error)));
  if (claimed instanceof Refused) return refused(claimed.refusal);
  if (!claimed) {
    const taken = await notificationOf(markerKey);
    if (taken && taken.messageId !== messageId) return notifiedOutcome(taken);
  }
  const sent = await smsSender()
    .send({ organizationId, messageId, inquiryId: '', threadId: '', userId: null, memberId, from: senderId, to: member.phone, body, createdAt })
    .catch(async (error: unknown) => {
      // Refused outright, nothing left; unconfirmed, it stays SENDING: either way it is never tried again.
      if (error instanceof SmsDeliveryError && !error.unconfirmed) await markNotification(markerKey, 'FAILED', { failureReason: error.message });
      if (error instanceof SmsDeliveryError) return undefined;
      throw error;
    });
  if (!sent) return notifiedOutcome((await notificationOf(markerKey)) ?? { status: 'SENDING', messageId });
  await markNotification(markerKey, 'SENT', { providerMessageId: sent.providerMessageId }).catch((error: unknown) =>
    logger.error('member notification sent but not marked SENT', { error, organizationId, memberId, messageId }),
  );
  return { sent: true, smsId: messageId, status: 'SENT' };
}

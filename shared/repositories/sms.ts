import { fromThreadItem, toSmsMessageItem, type SmsThread } from '../entities/inquiry';
import { fromLeadItem } from '../entities/lead';
import { keys } from '../entities/keys';
import { fromUserLookupItem, type UserLookup } from '../entities/member';
import type { SmsMessage } from '../schemas/inquiries';
import type { Lead } from '../schemas/leads';
import { OrganizationRecord } from '../schemas/organization';
import { batchGetItems } from './batch-get';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { NotFoundError } from '../errors';
import type { SmsStatus } from '../schemas/inquiries';
import { insertIfAbsent, requireExisting, transact, type TransactWrite } from './transact';

export interface SmsParties {
  lead?: Lead;
  user?: UserLookup;
  thread?: SmsThread;
  /** The organization's smsSenderId (what the lead sees the SMS come from, and where replies return); null: the stack's default. */
  senderId: string | null;
}

/** The lead, the sending user, the organization and (when given) the thread, in one consistent BatchGetItem. */
export async function readSmsParties(organizationId: string, { leadId, userId, threadId }: { leadId: string; userId: string; threadId?: string }): Promise<SmsParties> {
  const leadKey = keys.lead(organizationId, leadId);
  const userKey = keys.user(organizationId, userId);
  const organizationKey = keys.organization(organizationId);
  const threadKey = threadId === undefined ? undefined : keys.thread(organizationId, threadId);
  const items = await batchGetItems([leadKey, userKey, organizationKey, ...(threadKey ? [threadKey] : [])], { consistentRead: true });
  const bySk = new Map(items.map((item) => [item.sk as string, item]));
  const lead = bySk.get(leadKey.sk);
  const user = bySk.get(userKey.sk);
  const organization = bySk.get(organizationKey.sk);
  const thread = threadKey && bySk.get(threadKey.sk);
  return {
    lead: lead && fromLeadItem(lead),
    user: user && fromUserLookupItem(user),
    thread: thread ? fromThreadItem(thread) : undefined,
    senderId: organization ? v.parse(OrganizationRecord, organization).smsSenderId : null,
  };
}

/** Adds a message to an existing thread, on condition that its lead still exists (a lead deleted meanwhile: 404, nothing recorded). */
export async function appendSmsMessage(organizationId: string, thread: SmsThread, message: SmsMessage): Promise<void> {
  await transact([
    requireExisting(keys.lead(organizationId, thread.leadId), () => new NotFoundError('Lead not found')),
    insertIfAbsent(toSmsMessageItem(organizationId, thread.inquiryId, thread.threadId, message)),
  ]);
}

/**
 * An inbound reply in an existing thread, counted as unread on the lead, in one transaction. False when this
 * message was recorded already (a provider delivering the same reply twice).
 */
export async function appendInboundSmsMessage(organizationId: string, thread: SmsThread, message: SmsMessage): Promise<boolean> {
  class AlreadyRecorded extends Error {}
  const unread: TransactWrite = {
    item: {
      Update: {
        TableName: config.tableName,
        Key: keys.lead(organizationId, thread.leadId),
        UpdateExpression: 'ADD unreadSMS :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
    onConditionFailed: () => new NotFoundError('Lead not found'),
  };
  return transact([insertIfAbsent(toSmsMessageItem(organizationId, thread.inquiryId, thread.threadId, message), () => new AlreadyRecorded()), unread]).then(
    () => true,
    (error: unknown) => {
      if (error instanceof AlreadyRecorded) return false;
      throw error;
    },
  );
}

/** The SMS thread most recently started with the lead: where a reply from them goes. */
export async function latestThreadOf(organizationId: string, leadId: string): Promise<SmsThread | undefined> {
  const { gsi4pk } = keys.inquiryIndexes(organizationId, { id: '', leadId, source: 'SMS' });
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: config.tableName, IndexName: 'gsi4', KeyConditionExpression: 'gsi4pk = :pk', ExpressionAttributeValues: { ':pk': gsi4pk }, ScanIndexForward: false, Limit: 1 }),
  );
  const inquiry = Items?.[0];
  return inquiry ? { threadId: String(inquiry.sourceId), leadId, inquiryId: String(inquiry.id), createdAt: String(inquiry.createdAt) } : undefined;
}

/**
 * Moves a message from one status to the next, on condition that it is still in `from`: the send's answer moves
 * it from QUEUED (to SENT, or FAILED when refused), a carrier's receipt from SENT. So a status never moves back.
 * False when the message does not exist or is not in `from`.
 */
export async function moveSmsStatus(
  organizationId: string,
  inquiryId: string,
  messageId: string,
  from: SmsStatus,
  status: SmsStatus,
  details: { providerMessageId?: string; failureReason?: string } = {},
): Promise<boolean> {
  const extra = Object.entries(details).filter(([, value]) => value !== undefined);
  return dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.inquiryMessage(organizationId, inquiryId, messageId),
        // The provider's id is kept as first recorded (by the send, or a receipt that came first).
        UpdateExpression: `SET #status = :status${extra.map(([name]) => (name === 'providerMessageId' ? `, ${name} = if_not_exists(${name}, :${name})` : `, ${name} = :${name}`)).join('')}`,
        ConditionExpression: 'attribute_exists(pk) AND #status = :from',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':from': from, ...Object.fromEntries(extra.map(([name, value]) => [`:${name}`, value])) },
      }),
    )
    .then(
      () => true,
      (error: unknown) => {
        if ((error as Error).name === 'ConditionalCheckFailedException') return false;
        throw error;
      },
    );
}

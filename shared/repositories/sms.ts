import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { fromThreadItem, toSmsMessageItem, type SmsThread } from '../entities/inquiry';
import { fromLeadItem } from '../entities/lead';
import { keys } from '../entities/keys';
import type { SmsMessage } from '../schemas/inquiries';
import type { Lead } from '../schemas/leads';
import { batchGetItems } from './batch-get';
import { fromOrganizationUserItem, type OrganizationUser } from './users';

export interface SmsParties {
  lead?: Lead;
  user?: OrganizationUser;
  thread?: SmsThread;
}

/** The lead, the sending user and (when given) the thread, in one consistent BatchGetItem. */
export async function readSmsParties(organizationId: string, { leadId, userId, threadId }: { leadId: string; userId: string; threadId?: string }): Promise<SmsParties> {
  const leadKey = keys.lead(organizationId, leadId);
  const userKey = keys.user(organizationId, userId);
  const threadKey = threadId === undefined ? undefined : keys.thread(organizationId, threadId);
  const items = await batchGetItems([leadKey, userKey, ...(threadKey ? [threadKey] : [])], { consistentRead: true });
  const bySk = new Map(items.map((item) => [item.sk as string, item]));
  const lead = bySk.get(leadKey.sk);
  const user = bySk.get(userKey.sk);
  const thread = threadKey && bySk.get(threadKey.sk);
  return {
    lead: lead && fromLeadItem(lead),
    user: user && fromOrganizationUserItem(user),
    thread: thread ? fromThreadItem(thread) : undefined,
  };
}

/** Adds a message to an existing thread's inquiry collection. */
export async function appendSmsMessage(organizationId: string, thread: SmsThread, message: SmsMessage): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: config.tableName,
      Item: toSmsMessageItem(organizationId, thread.inquiryId, thread.threadId, message),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

import { fromThreadItem, toSmsMessageItem, type SmsThread } from '../entities/inquiry';
import { fromLeadItem } from '../entities/lead';
import { keys } from '../entities/keys';
import { fromUserLookupItem, type UserLookup } from '../entities/member';
import type { SmsMessage } from '../schemas/inquiries';
import type { Lead } from '../schemas/leads';
import { batchGetItems } from './batch-get';
import { insertIfAbsent, writeAlone } from './transact';

export interface SmsParties {
  lead?: Lead;
  user?: UserLookup;
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
    user: user && fromUserLookupItem(user),
    thread: thread ? fromThreadItem(thread) : undefined,
  };
}

/** Adds a message to an existing thread's inquiry collection. */
export async function appendSmsMessage(organizationId: string, thread: SmsThread, message: SmsMessage): Promise<void> {
  await writeAlone(insertIfAbsent(toSmsMessageItem(organizationId, thread.inquiryId, thread.threadId, message)));
}

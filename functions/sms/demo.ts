import type { Lead } from '../leads/schema';
import type { Member } from '../organization/member-schema';
import { sendSms } from './rules';
import type { DemoSeed } from '#shared/resource';
import { localReceiptsApplied } from './local-provider';

/**
 * One SMS thread with Olivia, started and continued through POST /v1/sms's own code path by the office
 * coordinator (any member in an organization without her). Returns its thread and inquiry, or nothing when the
 * organization has no member to send it or no Olivia.
 */
export async function seedSmsThread(organizationId: string, leads: Lead[], members: Member[]): Promise<{ threadId: string; inquiryId: string; messageIds: string[] } | undefined> {
  const olivia = leads.find((lead) => lead.email === 'olivia.nguyen@example.com.au');
  const users = members.map((member) => member.user);
  const senderUserId = (users.find((user) => user.email.startsWith('priya@')) ?? users[0])?.id;
  if (!senderUserId || !olivia) return undefined;
  const first = await sendSms(organizationId, {
    userId: senderUserId,
    leadId: olivia.id,
    message: "Hi Olivia, it's Priya from Harbour City Trades about your dripping tap and shower pressure. We can come tomorrow between 10 and 12. Does that suit?",
  });
  const second = await sendSms(organizationId, {
    userId: senderUserId,
    leadId: olivia.id,
    messageThreadId: first.threadId,
    message: 'The call-out is $99 including the first 30 minutes; a new mixer cartridge is usually $60-$90 fitted.',
  });
  const messageIds = [first.messageId, second.messageId];
  // Under npm start the local carrier reports each a moment later; the thread is seeded with its receipts applied.
  await localReceiptsApplied(messageIds);
  return { threadId: first.threadId, inquiryId: first.inquiryId, messageIds };
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = {
  after: ['inquiries', 'organization'],
  run: async (organizationId, demo) => {
    const thread = await seedSmsThread(organizationId, demo.leads as Lead[], demo.members as Member[]);
    return thread ? { smsThreadId: thread.threadId, smsIds: thread.messageIds, inquiryIds: [thread.inquiryId, ...(demo.inquiryIds as string[])] } : {};
  },
};

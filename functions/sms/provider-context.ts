import type { OutgoingSms } from './sender';

/**
 * What the provider carries with the message and hands back in its receipts: the message's ids, or for a member's
 * notification that it is one (functions/sms/receipts.ts ignores those).
 */
export function providerContext(sms: OutgoingSms): Record<string, string> {
  if (sms.memberId !== undefined) return { organizationId: sms.organizationId, kind: 'member', messageId: sms.messageId };
  return { organizationId: sms.organizationId, inquiryId: sms.inquiryId, messageId: sms.messageId };
}

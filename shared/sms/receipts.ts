import * as v from 'valibot';
import { moveSmsStatus } from '../repositories/sms';
import { RECEIPT_STATUS } from './receipt-types';

/** What a receipt must carry for us to act on it: its type, and the ids we sent as Context; `messageId` is the provider's. */
export const SmsReceipt = v.object({
  eventType: v.string(),
  messageId: v.optional(v.string()),
  messageStatusDescription: v.optional(v.string()),
  context: v.object({ organizationId: v.string(), inquiryId: v.string(), messageId: v.string() }),
});
export type SmsReceipt = v.InferOutput<typeof SmsReceipt>;

/**
 * Moves the message a receipt is about to DELIVERED or FAILED (which the stream turns into sms.delivered or
 * sms.failed). Receipts of other types, of messages not ours, or arriving twice change nothing.
 */
export async function applyReceipt(receipt: unknown): Promise<boolean> {
  const parsed = v.safeParse(SmsReceipt, receipt);
  if (!parsed.success) return false;
  const { eventType, context, messageId: providerMessageId, messageStatusDescription } = parsed.output;
  const status = RECEIPT_STATUS[eventType as keyof typeof RECEIPT_STATUS];
  if (!status) return false;
  const failureReason = status === 'FAILED' ? (messageStatusDescription ?? eventType) : undefined;
  return moveSmsStatus(context.organizationId, context.inquiryId, context.messageId, status, { providerMessageId, failureReason });
}

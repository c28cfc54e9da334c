import * as v from 'valibot';
import { moveSmsStatus } from './store';
import { RECEIPT_STATUS } from './receipt-types';
import { asWriter, inboundWriter } from '#shared/audit/writer';

/** What a receipt must carry for us to act on it: its type, and the ids we sent as Context; `messageId` is the provider's. */
export const SmsReceipt = v.object({
  eventType: v.string(),
  messageId: v.optional(v.string()),
  messageStatusDescription: v.optional(v.string()),
  context: v.object({ organizationId: v.string(), inquiryId: v.string(), messageId: v.string() }),
});
export type SmsReceipt = v.InferOutput<typeof SmsReceipt>;

/** A receipt for a text to a member (providerContext): there is no message of a lead's thread to move. */
const isMemberNotification = (receipt: unknown) => (receipt as { context?: { kind?: unknown } } | null)?.context?.kind === 'member';

/**
 * Moves the message a receipt is about to DELIVERED or FAILED (which the stream turns into sms.delivered or
 * sms.failed), from SENT. A receipt can arrive before the send's own SENT mark (or after that write failed),
 * or for a send the provider never confirmed (marked FAILED and `unconfirmed`): it then records the send first,
 * with the provider's id, so the message still passes through SENT and sms.sent is emitted once, before
 * sms.delivered. Receipts of other types, of messages not ours, of members' notifications, of sends refused outright,
 * or arriving twice change nothing.
 */
export async function applyReceipt(receipt: unknown): Promise<boolean> {
  if (isMemberNotification(receipt)) return false;
  const parsed = v.safeParse(SmsReceipt, receipt);
  if (!parsed.success) return false;
  const { eventType, context, messageId: providerMessageId, messageStatusDescription } = parsed.output;
  const status = RECEIPT_STATUS[eventType as keyof typeof RECEIPT_STATUS];
  if (!status) return false;
  const failureReason = status === 'FAILED' ? (messageStatusDescription ?? eventType) : undefined;
  const { organizationId, inquiryId, messageId } = context;
  const settle = () => moveSmsStatus(organizationId, inquiryId, messageId, 'SENT', status, { providerMessageId, failureReason });
  // Written as the provider's report (via inbound, no key), however it arrives: the audit log attributes the status to it.
  return asWriter(inboundWriter(providerMessageId ?? messageId), async () => {
    if ((await settle()) !== undefined) return true;
    // Not SENT: still QUEUED, FAILED unconfirmed, or past it already. Whoever marks it SENT (this receipt or the
    // send), it is SENT or later after this, so the second try settles it exactly when the first found it short of SENT.
    (await moveSmsStatus(organizationId, inquiryId, messageId, 'QUEUED', 'SENT', { providerMessageId })) ??
      (await moveSmsStatus(organizationId, inquiryId, messageId, 'FAILED', 'SENT', { providerMessageId }, { fromUnconfirmedFailure: true }));
    return (await settle()) !== undefined;
  });
}

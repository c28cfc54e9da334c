import { keys } from '../entities/keys';
import { insertIfAbsent, writeAlone } from '../repositories/transact';
import type { OutgoingSms, SmsReceipt, SmsSender } from './sender';

export function toOutboxItem(sms: OutgoingSms) {
  return { ...keys.smsOutbox(sms.organizationId, sms.messageId), entity: 'SMS_OUTBOX', status: 'PENDING', ...sms };
}

/**
 * Records the SMS as an OUTBOX# item for a delivery worker (a provider adapter reading the table's
 * stream) to send. Keyed by the message id, so the same send is never queued twice; a client that
 * repeats a whole request without an Idempotency-Key sends a second message.
 */
export const outboxSmsSender: SmsSender = {
  name: 'outbox',
  async send(sms: OutgoingSms): Promise<SmsReceipt> {
    await writeAlone(insertIfAbsent(toOutboxItem(sms)));
    return { status: 'QUEUED', providerMessageId: sms.messageId };
  },
};

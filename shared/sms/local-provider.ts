import { logger } from '../observability';
import type { OutgoingSms, SmsSender } from './sender';

/** What the local provider "sent", newest last: `npm start` and the tests read it. */
export const sentLocally: OutgoingSms[] = [];

/** An Australian number reserved for fiction: the local carrier reports it unreachable, so a FAILED receipt can be watched. */
export const LOCAL_UNREACHABLE_NUMBER = '+61491570159';

/** How long the local carrier takes to report. */
const RECEIPT_DELAY_MS = 100;

type ReceiptHandler = (receipt: unknown) => Promise<unknown>;
let applyReceipt: ReceiptHandler | undefined;

/** What the local carrier's receipts are handed to: the deployed receipts function's code, set by `npm start`. */
export function setLocalReceiptHandler(handler: ReceiptHandler): void {
  applyReceipt = handler;
}

/**
 * A provider that sends nothing: it records the message, accepts it, and a moment later reports a delivery
 * receipt through the same code the deployed receipts function runs (TEXT_DELIVERED, or
 * TEXT_CARRIER_UNREACHABLE for LOCAL_UNREACHABLE_NUMBER).
 */
export const localSmsProvider: SmsSender = {
  name: 'local',
  async send(sms: OutgoingSms) {
    sentLocally.push(sms);
    const eventType = sms.to === LOCAL_UNREACHABLE_NUMBER ? 'TEXT_CARRIER_UNREACHABLE' : 'TEXT_DELIVERED';
    const context = { organizationId: sms.organizationId, inquiryId: sms.inquiryId, messageId: sms.messageId };
    const providerMessageId = `local-${sms.messageId}`;
    setTimeout(() => {
      applyReceipt?.({ eventType, messageId: providerMessageId, messageStatusDescription: eventType === 'TEXT_DELIVERED' ? 'Message has been accepted by phone' : 'Carrier unreachable', context }).catch((error: unknown) =>
        logger.error('local SMS receipt failed', { error, messageId: sms.messageId }),
      );
    }, RECEIPT_DELAY_MS);
    return { providerMessageId };
  },
};

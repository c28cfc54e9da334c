import { logger } from '#shared/observability';
import type { OutgoingSms, SmsSender } from './sender';
import { providerContext } from './provider-context';

/** What the local provider "sent", newest last: `npm start` and the tests read it. */
export const sentLocally: OutgoingSms[] = [];

let shown: ((sms: OutgoingSms) => void) | undefined;
/** `npm start` shows each text as it is "sent" (a sign-in code, a member's alert), for the developer to read. */
export function showLocalTexts(show: (sms: OutgoingSms) => void): void {
  shown = show;
}

/** An Australian number reserved for fiction: the local carrier reports it unreachable, so a FAILED receipt can be watched. */
export const LOCAL_UNREACHABLE_NUMBER = '+61491570159';

/** How long the local carrier takes to report. */
const RECEIPT_DELAY_MS = 100;

type ReceiptHandler = (receipt: unknown) => Promise<unknown>;
let applyReceipt: ReceiptHandler | undefined;

/** Receipts the local carrier has yet to report and apply, by the message's id. */
const receiptsInFlight = new Map<string, Promise<unknown>>();

/**
 * Resolves once the local carrier's receipts for these messages have been applied (at once for a message it has none
 * pending for), so what seeded them is whole when it returns, not 100 ms later.
 */
export async function localReceiptsApplied(messageIds: readonly string[]): Promise<void> {
  await Promise.all(messageIds.map((messageId) => receiptsInFlight.get(messageId)));
}

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
    shown?.(sms);
    const eventType = sms.to === LOCAL_UNREACHABLE_NUMBER ? 'TEXT_CARRIER_UNREACHABLE' : 'TEXT_DELIVERED';
    const context = providerContext(sms);
    const providerMessageId = `local-${sms.messageId}`;
    const reported = new Promise((resolve) => setTimeout(resolve, RECEIPT_DELAY_MS))
      .then(() => applyReceipt?.({ eventType, messageId: providerMessageId, messageStatusDescription: eventType === 'TEXT_DELIVERED' ? 'Message has been accepted by phone' : 'Carrier unreachable', context }))
      .catch((error: unknown) => logger.error('local SMS receipt failed', { error, messageId: sms.messageId }))
      .finally(() => receiptsInFlight.delete(sms.messageId));
    receiptsInFlight.set(sms.messageId, reported);
    return { providerMessageId };
  },
};

import { moveSmsStatus, smsAwaitingProviderSince } from './store';

/** Far past any send's provider call (the sending function gives up after 15 s): no answer by then never comes. */
export const UNANSWERED_AFTER_MS = 5 * 60_000;

/** What a settled message's failureReason says. */
export const UNANSWERED_REASON = 'The send was recorded but never answered by the SMS provider; a delivery receipt will still record it if it left';

/**
 * Settles SMS stuck QUEUED: recorded, but the send that recorded them never got (or never recorded) the
 * provider's answer, e.g. it failed with the table unreachable. Each becomes FAILED and `unconfirmed` (the stream
 * emits sms.failed), on condition that it is still QUEUED, so a send or receipt that moves it first wins; a
 * receipt arriving later still moves it on to SENT and DELIVERED. Answers how many it settled.
 */
export async function settleUnansweredSms(now = Date.now()): Promise<number> {
  let settled = 0;
  const before = new Date(now - UNANSWERED_AFTER_MS).toISOString();
  for (;;) {
    const stuck = await smsAwaitingProviderSince(before);
    if (!stuck.length) return settled;
    const moved = await Promise.all(
      stuck.map(({ organizationId, inquiryId, messageId }) => moveSmsStatus(organizationId, inquiryId, messageId, 'QUEUED', 'FAILED', { failureReason: UNANSWERED_REASON, unconfirmed: true })),
    );
    const count = moved.filter(Boolean).length;
    settled += count;
    // A message that moved meanwhile left the index; when none of a full round moved, the index lags: try next time.
    if (!count) return settled;
  }
}

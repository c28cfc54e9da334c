import type { TransactWrite } from '#shared/store/transact';

// Contract stub: automated SMS (a lead's, sent by an automation's step; a member's notification) replaces this file.

export interface AutomatedSms {
  organizationId: string;
  leadId: string;
  /** Derived from the run and its step, so a step run twice finds its own message and never sends a second. */
  messageId: string;
  body: string;
  automationRunId: string;
  /** Written in the same transaction as the message's record; a failed condition answers `refused` with its `refusal`. */
  also?: readonly { write: TransactWrite; refusal: string }[];
}

export type AutomatedSmsOutcome =
  | { sent: true; smsId: string; status: string }
  /** Nothing was sent: `OPTED_OUT`, `NO_SENDER`, `LEAD_NOT_FOUND`, `NO_PHONE`, or an `also` write's refusal. */
  | { sent: false; refusal: string; smsId?: string };

/**
 * Records the message (once: an existing record with this id is answered as it stands, the provider not called
 * again) and sends it through the organization's sender, as POST /v1/sms does: thread, receipts and opt-out apply.
 */
export async function sendAutomatedSms(sms: AutomatedSms): Promise<AutomatedSmsOutcome> {
  void sms;
  throw new Error('sendAutomatedSms is not built yet');
}

/** A text to one of the organization's members (e.g. "Missed call from …"); `markerKey` makes it at most once. */
export async function notifyMember(notification: { organizationId: string; memberId: number; body: string; markerKey: { pk: string; sk: string } }): Promise<AutomatedSmsOutcome> {
  void notification;
  throw new Error('notifyMember is not built yet');
}

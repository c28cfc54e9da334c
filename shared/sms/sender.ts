import { outboxSmsSender } from './outbox-sender';

/** One outbound SMS, as handed to a provider. */
export interface OutgoingSms {
  organizationId: string;
  /** Our message id (message_…); providers that take an idempotency key get this one. */
  messageId: string;
  threadId: string;
  userId: string;
  /** E.164. */
  to: string;
  body: string;
  createdAt: string;
}

export interface SmsReceipt {
  /** QUEUED when the provider (or the outbox) accepted it for later delivery, SENT when it left already. */
  status: 'QUEUED' | 'SENT';
  providerMessageId: string;
}

/**
 * Where outbound SMS go. An implementation resolves once the provider has accepted the message and
 * throws SmsDeliveryError (shared/errors.ts) when the provider refuses or cannot be reached; the API
 * answers that with 502 and records nothing. Any other error is a fault of ours (500).
 */
export interface SmsSender {
  readonly name: string;
  send(sms: OutgoingSms): Promise<SmsReceipt>;
}

let current: SmsSender = outboxSmsSender;

/** The sender this container uses: the outbox until a provider adapter is wired in here. */
export function smsSender(): SmsSender {
  return current;
}

/**
 * Replaces the sender for this process and returns the previous one. The composition seam for a
 * provider adapter, and how tests inject a failing provider; handlers never call it.
 */
export function setSmsSender(sender: SmsSender): SmsSender {
  const previous = current;
  current = sender;
  return previous;
}

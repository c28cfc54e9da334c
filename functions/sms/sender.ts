import { endUserMessagingSender } from './end-user-messaging';
export { SmsDeliveryError } from './delivery-error';
import { localSmsProvider } from './local-provider';

/** One outbound SMS, as handed to a provider. */
export interface OutgoingSms {
  organizationId: string;
  /** Our message id (message_…): the provider carries it with the message, so its receipts name it. */
  messageId: string;
  /** The SMS inquiry and thread of a lead's message; empty on a member's notification (`memberId`), which has neither. */
  inquiryId: string;
  threadId: string;
  /** The member's user who wrote it; null when an automation did. */
  userId: string | null;
  /** Set on a text to one of the organization's members (not a lead's message): its receipts have no message to move. */
  memberId?: number;
  /**
   * The organization's smsSenderId (an E.164 number or an alphanumeric sender id): what the lead sees, and the
   * number replies come back to. Null: the stack's configured origination identity, or the provider's choice.
   */
  from: string | null;
  /** E.164. */
  to: string;
  body: string;
  createdAt: string;
}

/**
 * Where outbound SMS go. `send` resolves with the provider's id once it accepted the message and throws
 * SmsDeliveryError (delivery-error.ts) when the provider refuses or cannot be reached.
 */
export interface SmsSender {
  readonly name: string;
  send(sms: OutgoingSms): Promise<{ providerMessageId: string }>;
}

/** SMS_PROVIDER: `end-user-messaging` when deployed (the stack sets it), the local provider otherwise. */
function configuredSender(): SmsSender {
  const provider = process.env.SMS_PROVIDER ?? 'local';
  if (provider === 'end-user-messaging') return endUserMessagingSender();
  if (provider === 'local') return localSmsProvider;
  throw new Error(`SMS_PROVIDER must be end-user-messaging or local, not ${provider}`);
}

let current: SmsSender | undefined;

/** The sender this container uses, chosen once. */
export function smsSender(): SmsSender {
  return (current ??= configuredSender());
}

/** Replaces the sender for this process and returns the previous one: how tests put a failing provider in. */
export function setSmsSender(sender: SmsSender): SmsSender {
  const previous = smsSender();
  current = sender;
  return previous;
}

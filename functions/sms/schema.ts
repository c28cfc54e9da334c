import * as v from 'valibot';
import { PrefixedId } from '../../shared/schema';

/** Ten concatenated SMS segments of 160 GSM characters, the usual provider ceiling. */
export const SMS_MAX_LENGTH = 1600;

export const SendSmsBody = v.strictObject({
  userId: PrefixedId('user', 'userId'),
  leadId: PrefixedId('lead', 'leadId'),
  message: v.pipe(
    v.string('message must be a string'),
    v.minLength(1, 'message must not be empty'),
    v.check((message) => message.trim().length > 0, 'message must not be blank'),
    v.maxLength(SMS_MAX_LENGTH, `message must be at most ${SMS_MAX_LENGTH} characters`),
  ),
  messageThreadId: v.optional(PrefixedId('thread', 'messageThreadId', { label: 'Message thread' })),
});
export type SendSmsBody = v.InferOutput<typeof SendSmsBody>;

export const SMS_SENT_MESSAGE = 'SMS sent';

export const SmsSent = v.object({ message: v.string() });

/** The provider failing (502): a bare `{message}`, not the error envelope, as the SMS endpoint has always answered. */
export const SmsDeliveryFailed = v.object({ message: v.string() });

import * as v from 'valibot';
import { NonEmptyString, PageQuery, PrefixedId, TEXT_RULE, Timestamp, pageSchema } from '#shared/schema';
import { SMS_DIRECTIONS, SMS_STATUSES } from '../inquiries/schema';

/** Ten concatenated segments of 160 GSM characters; a message with other characters takes more segments for as much text. */
export const SMS_MAX_LENGTH = 1600;

export const SendSmsBody = v.strictObject({
  userId: v.pipe(PrefixedId('user', 'userId'), v.description('The member the SMS is sent as: a member’s `user.id`. The thread keeps who wrote each message.')),
  leadId: PrefixedId('lead', 'leadId'),
  // Text a person wrote, held to the rule of every free-text field: a control character reaches the lead's phone.
  // An SMS is encoded in 16-bit units once it holds any character outside GSM's alphabet, and an emoji takes two of
  // them: the ceiling counts those units, tighter than the characters the document's maxLength counts.
  message: v.pipe(
    NonEmptyString('message', SMS_MAX_LENGTH),
    v.maxLength(SMS_MAX_LENGTH, `message must be at most ${SMS_MAX_LENGTH} SMS units, where an emoji counts two`),
    v.description(`${TEXT_RULE} At most ${SMS_MAX_LENGTH} units as an SMS encodes it: a character is one, an emoji two.`),
  ),
  messageThreadId: v.optional(PrefixedId('thread', 'messageThreadId', { label: 'Message thread' })),
});
export type SendSmsBody = v.InferOutput<typeof SendSmsBody>;

export const SMS_SENT_MESSAGE = 'SMS sent';

/** The 503 of a send whose message could not be recorded in time: nothing was recorded or sent. */
export const SMS_NOT_RECORDED_MESSAGE = 'The SMS could not be recorded in time and was not sent; retry after the Retry-After seconds';

/**
 * One SMS message, outbound or a reply, as POST /v1/sms answers it and GET /v1/sms lists it: its status now, the
 * lead and thread it belongs to, and the SMS inquiry holding the thread.
 */
export const Sms = v.object({
  id: v.string(),
  direction: v.picklist(SMS_DIRECTIONS),
  status: v.picklist(SMS_STATUSES),
  body: v.string(),
  leadId: v.string(),
  /** The member's user who sent an outbound message; null for a reply, and for a message an automation sent. */
  userId: v.nullable(v.string()),
  messageThreadId: v.string(),
  inquiryId: v.string(),
  automationRunId: v.optional(v.pipe(v.string(), v.description('The automation run (`run_…`) that sent it.'))),
  createdAt: Timestamp,
  /** When it was recorded or its status last moved: the sync order (updatedSince). */
  updatedAt: Timestamp,
});
export type Sms = v.InferOutput<typeof Sms>;

export const SmsSent = v.object({ message: v.string(), sms: Sms });

export const SmsResponse = v.object({ sms: Sms });

/** Listed under `messages` (Twilio's word): `sms` is the single message's key, and reads the same in the plural. */
export const SmsPage = pageSchema('messages', Sms);

export const ListSmsQuery = v.object({
  ...PageQuery.entries,
  leadId: v.optional(PrefixedId('lead', 'leadId')),
  messageThreadId: v.optional(PrefixedId('thread', 'messageThreadId')),
  status: v.optional(v.picklist(SMS_STATUSES, `status must be one of ${SMS_STATUSES.join(', ')}`)),
});
export type ListSmsQuery = v.InferOutput<typeof ListSmsQuery>;

export const SmsIdPath = v.object({ smsId: PrefixedId('message', 'smsId', { label: 'SMS' }) });

/** The provider failing (502): a bare `{message}`, not the error envelope, as the SMS endpoint has always answered. */
export const SmsDeliveryFailed = v.object({ message: v.string() });

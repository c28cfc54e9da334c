import { SendSmsBody, SmsDeliveryFailed, SmsSent } from '../schemas/sms';
import { defineRoute } from './route';

export const sendSms = defineRoute({
  operationId: 'sendSms',
  method: 'POST',
  path: '/v1/sms',
  handler: 'sms/send',
  summary: 'Send an SMS to a lead, starting a thread (and an SMS inquiry) or replying in one',
  description: 'Sent by a member (`userId`) to the lead’s phone. Without `messageThreadId` it starts a thread, recorded as an SMS inquiry; with one it adds the message to that thread. A lead without a phone or a disabled member answers 400; if the SMS provider fails, nothing is recorded and the answer is 502 with a bare `{message}`.',
  tag: 'SMS',
  // BatchGetItem validates; PutItem queues (outbox) and appends; the new-thread transaction puts and
  // updates, and re-reads the lead (GetItem) when another inquiry raced it.
  dynamodb: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  status: 201,
  request: { body: SendSmsBody },
  response: SmsSent,
  // 502: the provider failed; its body is the bare {message} of SmsDeliveryFailed (shared/schemas/sms.ts).
  errors: [400, 404, 502],
  responses: { 502: { description: 'The SMS provider failed; the body is {message} only, not the error envelope.', schema: SmsDeliveryFailed } },
});

export const smsRoutes = [sendSms];

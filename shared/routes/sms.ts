import { SendSmsBody, SmsDeliveryFailed, SmsSent } from '../schemas/sms';
import { defineRoute } from './route';

export const sendSms = defineRoute({
  operationId: 'sendSms',
  method: 'POST',
  path: '/v1/sms',
  handler: 'sms/send',
  summary: 'Send an SMS to a lead, starting a thread (and an SMS inquiry) or replying in one',
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

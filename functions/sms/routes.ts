import { SendSmsBody, SmsDeliveryFailed, SmsSent } from './schema';
import { defineRoute } from '../../shared/routes/route';

export const sendSms = defineRoute({
  operationId: 'sendSms',
  method: 'POST',
  path: '/v1/sms',
  summary: 'Send an SMS to a lead, starting a thread (and an SMS inquiry) or replying in one',
  description: 'Sent by a member (`userId`) to the lead’s phone. Without `messageThreadId` it starts a thread, recorded as an SMS inquiry; with one it adds the message to that thread. The message is recorded (status `QUEUED`) before it is handed to the SMS provider, then becomes `SENT`, and later `DELIVERED` or `FAILED` as the carrier reports. A lead without a phone or a disabled member answers 400; if the provider refuses the message it stays in the thread as `FAILED` and the answer is 502 with a bare `{message}`.',
  tag: 'SMS',
  // BatchGetItem validates; a transaction records the message (a new thread's puts and lead update, or a
  // reply's lead check and put); UpdateItem moves its status; GetItem re-reads a lead another inquiry raced.
  dynamodb: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  sendsSms: true,
  status: 201,
  request: { body: SendSmsBody },
  requestExample: {
    userId: 'user_01JBQ0ZP5W9X7Y3Z1A2B4C6D8E',
    leadId: 'lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6',
    message: 'Hi Olivia, Tom can look at the blocked drain tomorrow between 8 and 10am. Does that suit?',
  },
  response: SmsSent,
  // 502: the provider failed; its body is the bare {message} of SmsDeliveryFailed (functions/sms/schema.ts).
  errors: [400, 404, 502],
  responses: { 502: { description: 'The SMS provider failed; the body is {message} only, not the error envelope.', schema: SmsDeliveryFailed } },
});

export const smsRoutes = [sendSms];

import { SendSmsBody, SMS_NOT_RECORDED_MESSAGE, SmsDeliveryFailed, SmsSent } from './schema';
import { errorEnvelope } from '#shared/http/envelope';
import { createRow } from '#shared/routes/rows';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { smsSender } from './capability';
import { prose } from '#shared/prose';
import { listRow } from '#shared/routes/rows';
import { CONVERSATIONS_DESCRIPTION, ConversationPage, ListConversationsQuery } from './conversation-schema';

const smsRows = recordRows(schema, { tag: 'SMS', names: { one: 'Sms', many: 'Sms' }, path: '/v1/sms', changeLog: true });

export const sendSms = createRow({
  operationId: 'sendSms',
  path: '/v1/sms',
  summary: 'Send an SMS to a lead, starting a thread (and an SMS inquiry) or replying in one',
  description: prose`
    Sent by a member (\`userId\`) to the lead’s phone. Without \`messageThreadId\` it starts a thread, recorded as an
    SMS inquiry; with one it adds the message to that thread. The message is recorded (status \`QUEUED\`) before it is
    handed to the SMS provider, then becomes \`SENT\`, and later \`DELIVERED\` or \`FAILED\` as the carrier reports;
    the answer’s \`sms\` is the message as recorded (\`SENT\`, or \`QUEUED\` while that mark is not written), and
    \`GET /v1/sms/{smsId}\` reads it later. A lead without a phone or a disabled member answers 400; if the provider
    refuses the message it stays in the thread as \`FAILED\` and the answer is 502 with a bare \`{message}\`. Sends to
    one lead at the same moment wait their turn to be recorded; one that cannot be recorded within a few seconds (the
    lead kept busy by other writes, or the store not answering) answers 503 \`SERVICE_UNAVAILABLE\` with
    \`Retry-After\`, having recorded and sent nothing: send it again, with the same \`Idempotency-Key\` too, and it is
    sent once.
  `,
  tag: 'SMS',
  // BatchGetItem validates; a transaction records the message (a new thread's puts and lead update, or a
  // reply's lead check and put) and its counters; a transaction moves its status and the status counters; GetItem
  // re-reads a lead another inquiry raced, and the message after a failed write; PutItem marks a message given up.
  dynamodb: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  capabilities: [smsSender],
  request: { body: SendSmsBody },
  requestExample: {
    userId: 'user_01JBQ0ZP5W9X7Y3Z1A2B4C6D8E',
    leadId: 'lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6',
    message: 'Hi Olivia, Tom can look at the blocked drain tomorrow between 8 and 10am. Does that suit?',
  },
  response: SmsSent,
  // 502: the provider failed; its body is the bare {message} of SmsDeliveryFailed (functions/sms/schema.ts).
  // 503: not recorded in time (the lead busy, the store not answering); nothing was recorded or sent.
  errors: [404, 502, 503],
  responses: {
    502: { description: 'The SMS provider failed; the body is {message} only, not the error envelope.', schema: SmsDeliveryFailed },
    503: {
      description: prose`
        SERVICE_UNAVAILABLE: the message could not be recorded within a few seconds (other writes to the lead kept
        it busy, or the store did not answer); nothing was recorded or sent. Retry after the Retry-After seconds,
        with the same Idempotency-Key too: a 503 is not kept, so the retry runs and sends the message once.
        STORE_UNAVAILABLE: the store did not answer while the message was being read or prepared; retry with the
        same Idempotency-Key. AUTHORIZER_UNAVAILABLE: the gateway could not check the API key; nothing ran: retry.
      `,
      headers: { 'Retry-After': 'Seconds to wait before retrying (SERVICE_UNAVAILABLE, STORE_UNAVAILABLE).' },
      examples: { NotRecorded: errorEnvelope(503, SMS_NOT_RECORDED_MESSAGE, 'SERVICE_UNAVAILABLE') },
    },
  },
});

export const listSms = smsRows.list({
  summary: 'List SMS messages, newest first',
  description: prose`
    Every SMS message of the organization, sent and received, with its status now (\`QUEUED\` included), newest first,
    listed under \`messages\`; optionally only one lead’s (\`leadId\`), one thread’s (\`messageThreadId\`) and/or one
    \`status\`. \`totalCount\` is exact for every filter. A lead or thread without messages (unknown, or another
    organization’s) answers an empty list.
  `,
  // Query of the filter's index partition (or, with two filters, the lead's or thread's partition whole) and its
  // counter; BatchGetItem: a sharded organization's totalCount is the sum of its counter's shards.
  dynamodb: ['Query', 'GetItem', 'BatchGetItem'],
  indexes: ['gsi2', 'gsi3', 'gsi4', 'gsi5'],
});

export const getSms = smsRows.get({
  summary: 'Read an SMS message and its status',
  description: prose`
    One SMS message, sent or received, with its status now: \`QUEUED\` until the provider answers, then \`SENT\`,
    \`DELIVERED\` or \`FAILED\`; a reply is \`RECEIVED\`. The \`id\` is the message id \`POST /v1/sms\` answers and an
    SMS inquiry’s \`data.messages\` list. Another organization’s message answers 404.
  `,
  // gsi2: the organization's messages index, queried at the id.
  dynamodb: ['Query'],
  indexes: ['gsi2'],
});

export const listConversations = listRow({
  operationId: 'listConversations',
  path: '/v1/conversations',
  summary: 'List conversations, one per customer, the latest text first',
  description: CONVERSATIONS_DESCRIPTION,
  tag: 'Conversations',
  // Query: the organization's conversations (gsi1) whole; BatchGetItem: their leads, then the page's senders.
  dynamodb: ['Query', 'BatchGetItem'],
  indexes: ['gsi1'],
  request: { query: ListConversationsQuery },
  response: ConversationPage,
});

export const smsRoutes = [sendSms, listSms, getSms, listConversations];

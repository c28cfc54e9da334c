import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SNSEvent } from 'aws-lambda';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as receiptHandler } from './receipt';
import { createMember } from '../organization/member-rules';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { inquiryKeys } from '../inquiries/entity';
import { SmsDeliveryError } from './sender';
import { endUserMessagingSender, SMS_PROVIDER_TIMEOUTS } from './end-user-messaging';
import { setSmsSender, type OutgoingSms, type SmsSender } from './sender';
import { useTestApi, type Client } from '../../test/support/api';
import { freePort } from '../../test/support/ports';

const api = useTestApi();

interface ProviderRequest {
  target: string | undefined;
  headers: IncomingHttpHeaders;
  input: Record<string, unknown>;
}

interface ProviderAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** An answer that never comes: the provider reads the request and holds the connection open. */
const NO_ANSWER = 'no answer';
/** How an unconfirmed failure ends its message. */
const RECEIPT_WILL_SAY = 'if it was sent, its delivery receipt will mark it sent';

/**
 * End User Messaging as the SDK sees it: an HTTP server on 127.0.0.1 speaking its JSON protocol. It records
 * every request and answers each with the next queued answer, or accepts the message with a new MessageId.
 */
async function startProvider() {
  const requests: ProviderRequest[] = [];
  let answers: (ProviderAnswer | typeof NO_ANSWER)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ target: request.headers['x-amz-target'] as string | undefined, headers: request.headers, input: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const answer = answers.shift() ?? { status: 200, body: { MessageId: `eum-${requests.length}` } };
      if (answer === NO_ANSWER) return;
      const { status, body } = answer;
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `request-${requests.length}` }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answerWith: (...next: (ProviderAnswer | typeof NO_ANSWER)[]) => void (answers = next),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** What End User Messaging answers when it refuses a request: the error type in `__type`, as its JSON protocol has it. */
const refusal = (status: number, type: string): ProviderAnswer => ({ status, body: { __type: type, Message: `${type} from the provider` } });

const STACK_IDENTITY = 'pool-0123456789abcdef';
const ENDPOINT_VARIABLE = 'AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2';
let provider: Awaited<ReturnType<typeof startProvider>>;

// The adapter reads its configuration once, when made: each test makes its sender after setting these.
beforeAll(async () => {
  provider = await startProvider();
  Object.assign(process.env, { [ENDPOINT_VARIABLE]: provider.url, SMS_CONFIGURATION_SET: 'pipeline-sms', SMS_ORIGINATION_IDENTITY: STACK_IDENTITY });
});
afterAll(async () => {
  for (const name of [ENDPOINT_VARIABLE, 'SMS_CONFIGURATION_SET', 'SMS_ORIGINATION_IDENTITY']) delete process.env[name];
  await provider.close();
});
afterEach(() => {
  provider.requests.length = 0;
  provider.answerWith();
});

const outgoing = (from: string | null): OutgoingSms => ({
  organizationId: 'org_01JAAAAAAAAAAAAAAAAAAAAAAA',
  messageId: 'message_01JAAAAAAAAAAAAAAAAAAAAAAA',
  inquiryId: '42',
  threadId: 'thread_01JAAAAAAAAAAAAAAAAAAAAAAA',
  userId: 'user_01JAAAAAAAAAAAAAAAAAAAAAAA',
  from,
  to: '+61412345001',
  body: 'Hi Olivia, we can come tomorrow at 10.',
  createdAt: new Date().toISOString(),
});

describe('the End User Messaging adapter, through the real SDK client', () => {
  it('sends SendTextMessage to the lead, from the organization’s number, through the configuration set, TRANSACTIONAL, with the message ids as Context', async () => {
    const sms = outgoing('+61299995001');
    const result = await endUserMessagingSender().send(sms);
    expect(provider.requests.map(({ target, input }) => ({ target, input }))).toEqual([
      {
        target: 'PinpointSMSVoiceV2.SendTextMessage',
        input: {
          DestinationPhoneNumber: '+61412345001',
          OriginationIdentity: '+61299995001',
          ConfigurationSetName: 'pipeline-sms',
          MessageBody: 'Hi Olivia, we can come tomorrow at 10.',
          MessageType: 'TRANSACTIONAL',
          Context: { organizationId: sms.organizationId, inquiryId: '42', messageId: sms.messageId },
        },
      },
    ]);
    // Signed as the process signs: with the environment's key (each test file has its own) in its region.
    expect(provider.requests[0]!.headers.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${process.env.AWS_ACCESS_KEY_ID}/\\d{8}/local/sms-voice/aws4_request`));
    expect(result).toEqual({ providerMessageId: 'eum-1' });
  });

  it('sends from an alphanumeric sender id as given, and from the stack’s identity for an organization without one', async () => {
    const sender = endUserMessagingSender();
    await sender.send(outgoing('HarbourPlb'));
    await sender.send(outgoing(null));
    expect(provider.requests.map(({ input }) => input.OriginationIdentity)).toEqual(['HarbourPlb', STACK_IDENTITY]);
  });

  it('leaves the origination identity to End User Messaging when neither the organization nor the stack names one', async () => {
    delete process.env.SMS_ORIGINATION_IDENTITY;
    try {
      await endUserMessagingSender().send(outgoing(null));
    } finally {
      process.env.SMS_ORIGINATION_IDENTITY = STACK_IDENTITY;
    }
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.input).not.toHaveProperty('OriginationIdentity');
  });

  it.each([
    [400, 'ValidationException'],
    [403, 'AccessDeniedException'],
    [404, 'ResourceNotFoundException'],
    [429, 'ThrottlingException'],
  ])('turns a %i %s into a confirmed refusal after exactly one attempt, retryable or not', async (status, type) => {
    provider.answerWith(refusal(status, type));
    const error = await endUserMessagingSender()
      .send(outgoing('+61299995001'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SmsDeliveryError);
    expect(error).toMatchObject({ message: `SMS provider refused the message: ${type}`, unconfirmed: false });
    // SendTextMessage has no idempotency token: a retry could text the lead twice.
    expect(provider.requests).toHaveLength(1);
  });

  it('turns a 500 InternalServerException into an unconfirmed failure after exactly one attempt: the provider may have taken it', async () => {
    provider.answerWith(refusal(500, 'InternalServerException'));
    const error = await endUserMessagingSender()
      .send(outgoing('+61299995001'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SmsDeliveryError);
    expect(error).toMatchObject({ message: `SMS provider did not confirm the message: InternalServerException; ${RECEIPT_WILL_SAY}`, unconfirmed: true });
    expect(provider.requests).toHaveLength(1);
  });

  it('turns an unreachable provider into an unconfirmed SmsDeliveryError', async () => {
    process.env[ENDPOINT_VARIABLE] = `http://127.0.0.1:${await freePort()}`;
    try {
      const error = await endUserMessagingSender()
        .send(outgoing(null))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SmsDeliveryError);
      expect(error).toMatchObject({ unconfirmed: true });
    } finally {
      process.env[ENDPOINT_VARIABLE] = provider.url;
    }
  });

  it('gives up on a provider that never answers after its request timeout, well inside the function’s 15 s, after one attempt', async () => {
    provider.answerWith(NO_ANSWER);
    const started = performance.now();
    const error = await endUserMessagingSender()
      .send(outgoing(null))
      .catch((caught: unknown) => caught);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(SmsDeliveryError);
    expect(error).toMatchObject({ message: `SMS provider did not confirm the message: TimeoutError; ${RECEIPT_WILL_SAY}`, unconfirmed: true });
    expect(elapsed).toBeGreaterThanOrEqual(SMS_PROVIDER_TIMEOUTS.requestTimeout - 100);
    // Well inside the function's 15 s, with room for a busy machine.
    expect(elapsed).toBeLessThan(15_000 - 1_000);
    expect(provider.requests).toHaveLength(1);
  });

  it('refuses to start without its configuration set, naming the variable', () => {
    delete process.env.SMS_CONFIGURATION_SET;
    try {
      expect(() => endUserMessagingSender()).toThrow(/SMS_CONFIGURATION_SET/);
    } finally {
      process.env.SMS_CONFIGURATION_SET = 'pipeline-sms';
    }
  });
});

interface SentThroughApi {
  client: Client;
  organizationId: string;
  inquiryId: string;
  messageId: string;
}

/** An organization (with `smsSenderId` when given), a member and a lead; the lead is sent one SMS through POST /v1/sms. */
async function sendThroughApi(message: string, smsSenderId?: string): Promise<SentThroughApi & { status: number; body: unknown }> {
  const { client, organizationId } = await api.organization();
  if (smsSenderId) expect((await client.patch('/v1/organization', { smsSenderId })).status).toBe(200);
  const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
  const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com.au', phone: '+61412345001' })).body.lead;
  const res = await client.post('/v1/sms', { userId: member.user.id, leadId: lead.id, message });
  const [inquiry] = (await client.get(`/v1/inquiries?leadId=${lead.id}&source=SMS`)).body.inquiries;
  const [recorded] = (await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.messages;
  return { client, organizationId, inquiryId: inquiry.id, messageId: recorded.id, status: res.status, body: res.body };
}

async function messageItem({ organizationId, inquiryId, messageId }: SentThroughApi) {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: inquiryKeys.inquiryMessage(organizationId, inquiryId, messageId), ConsistentRead: true }));
  return Item!;
}

describe('POST /v1/sms with the End User Messaging adapter', () => {
  let previous: SmsSender | undefined;
  beforeAll(() => {
    previous = setSmsSender(endUserMessagingSender());
  });
  afterAll(() => {
    if (previous) setSmsSender(previous);
  });

  it('sends each organization’s SMS from its own number or sender id, else the stack’s, with its message id as Context, and records SENT with the provider’s id', async () => {
    const sent = [await sendThroughApi('From the number', '+61299995002'), await sendThroughApi('From the sender id', 'HarbourPlb'), await sendThroughApi('From the stack')];
    expect(sent.map(({ status }) => status)).toEqual([201, 201, 201]);
    expect(provider.requests.map(({ input }) => [input.MessageBody, input.OriginationIdentity, input.Context])).toEqual(
      sent.map(({ organizationId, inquiryId, messageId }, i) => [['From the number', 'From the sender id', 'From the stack'][i], ['+61299995002', 'HarbourPlb', STACK_IDENTITY][i], { organizationId, inquiryId, messageId }]),
    );
    for (const [i, message] of sent.entries()) expect(await messageItem(message)).toMatchObject({ status: 'SENT', providerMessageId: `eum-${i + 1}` });
  });

  it('replays the 502 of an unconfirmed send to a retry with the same Idempotency-Key, and sends nothing again', async () => {
    const { client, organizationId } = await api.organization();
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com.au', phone: '+61412345001' })).body.lead;
    const body = { userId: member.user.id, leadId: lead.id, message: 'Maybe sent' };
    const withKey = { headers: { 'Idempotency-Key': 'sms-maybe-sent-1' } };
    provider.answerWith(refusal(500, 'InternalServerException'));
    const first = await client.post('/v1/sms', body, withKey);
    expect(first.status).toBe(502);
    const retry = await client.post('/v1/sms', body, withKey);
    expect(retry.status).toBe(502);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(provider.requests).toHaveLength(1);
  });

  it('answers 502 with {message} when the provider refuses, and keeps the message FAILED with the reason, sent once', async () => {
    provider.answerWith(refusal(400, 'ValidationException'));
    const refused = await sendThroughApi('Refused', 'HarbourPlb');
    expect(refused.status).toBe(502);
    expect(refused.body).toEqual({ message: 'SMS provider refused the message: ValidationException' });
    expect(await messageItem(refused)).toMatchObject({ status: 'FAILED', failureReason: 'SMS provider refused the message: ValidationException' });
    expect(provider.requests).toHaveLength(1);
  });
});

describe('the delivery-receipt function', () => {
  let previous: SmsSender | undefined;
  beforeAll(() => {
    previous = setSmsSender(endUserMessagingSender());
  });
  afterAll(() => {
    if (previous) setSmsSender(previous);
  });

  /** The event End User Messaging publishes for a message, carrying back the Context it was sent with. */
  const smsEvent = (eventType: string, messageStatus: string, messageStatusDescription: string, context: Record<string, unknown>) => ({
    eventType,
    eventVersion: '1.0',
    eventTimestamp: Date.now(),
    isFinal: messageStatus !== 'PENDING',
    originationPhoneNumber: '+61299995003',
    destinationPhoneNumber: '+61412345001',
    isInternationalSend: false,
    mcc: '505',
    mnc: '01',
    messageId: 'eum-message-id',
    messageRequestTimestamp: Date.now() - 1_000,
    messageEncoding: 'GSM',
    messageType: 'TRANSACTIONAL',
    messageStatus,
    messageStatusDescription,
    context,
    totalMessageParts: 1,
    totalMessagePrice: 0.0415,
    totalCarrierFee: 0,
  });

  /** SNS's envelope around the configuration set's events, as Lambda receives it. */
  const snsEvent = (...messages: object[]): SNSEvent => ({
    Records: messages.map((message, i) => ({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:ap-southeast-2:123456789012:pipeline-sms-events:5f1c6a2e-0000-4000-8000-000000000000',
      Sns: {
        Type: 'Notification',
        MessageId: `9a7a3a4e-0000-4000-8000-00000000000${i}`,
        TopicArn: 'arn:aws:sns:ap-southeast-2:123456789012:pipeline-sms-events',
        Subject: '',
        Message: JSON.stringify(message),
        Timestamp: new Date().toISOString(),
        SignatureVersion: '1',
        Signature: 'EXAMPLE',
        SigningCertUrl: 'https://sns.ap-southeast-2.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem',
        UnsubscribeUrl: 'https://sns.ap-southeast-2.amazonaws.com/?Action=Unsubscribe',
        MessageAttributes: {},
      },
    })),
  });

  /** The Context the provider received for this message: what its events carry back. */
  const contextOf = ({ messageId }: SentThroughApi) => provider.requests.find(({ input }) => (input.Context as { messageId: string }).messageId === messageId)!.input.Context as Record<string, unknown>;
  const statusOf = async (client: Client, { inquiryId }: SentThroughApi) => (await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages[0].status;

  it('moves a SENT message to DELIVERED on TEXT_DELIVERED, after a pending event that changes nothing', async () => {
    const sent = await sendThroughApi('Arrives', '+61299995003');
    expect(await statusOf(sent.client, sent)).toBe('SENT');
    const context = contextOf(sent);
    await receiptHandler(snsEvent(smsEvent('TEXT_PENDING', 'PENDING', 'Message is pending', context)));
    expect(await statusOf(sent.client, sent)).toBe('SENT');
    await receiptHandler(snsEvent(smsEvent('TEXT_DELIVERED', 'DELIVERED', 'Message has been accepted by phone', context)));
    expect(await statusOf(sent.client, sent)).toBe('DELIVERED');
  });

  it('moves messages to FAILED with the carrier’s description, one per record, and never back', async () => {
    const unreachable = await sendThroughApi('Out of range', '+61299995004');
    const spam = await sendThroughApi('Looks like spam');
    await receiptHandler(
      snsEvent(
        smsEvent('TEXT_CARRIER_UNREACHABLE', 'CARRIER_UNREACHABLE', 'Carrier unreachable', contextOf(unreachable)),
        smsEvent('TEXT_SPAM', 'SPAM', 'Message was blocked as spam', contextOf(spam)),
        // An SMS this service did not send (the console's test message) carries no Context of ours.
        smsEvent('TEXT_DELIVERED', 'DELIVERED', 'Message has been accepted by phone', {}),
      ),
    );
    expect([await statusOf(unreachable.client, unreachable), await statusOf(spam.client, spam)]).toEqual(['FAILED', 'FAILED']);
    expect(await messageItem(unreachable)).toMatchObject({ failureReason: 'Carrier unreachable' });
    expect(await messageItem(spam)).toMatchObject({ failureReason: 'Message was blocked as spam' });

    await receiptHandler(snsEvent(smsEvent('TEXT_DELIVERED', 'DELIVERED', 'Message has been accepted by phone', contextOf(unreachable))));
    expect(await statusOf(unreachable.client, unreachable)).toBe('FAILED');
  });

  it('keeps a send the provider refused outright FAILED, whatever receipt follows', async () => {
    provider.answerWith(refusal(400, 'ValidationException'));
    const refused = await sendThroughApi('Refused outright');
    expect(refused.status).toBe(502);
    await receiptHandler(snsEvent(smsEvent('TEXT_DELIVERED', 'DELIVERED', 'Message has been accepted by phone', contextOf(refused))));
    expect(await statusOf(refused.client, refused)).toBe('FAILED');
    expect(await messageItem(refused)).toMatchObject({ failureReason: 'SMS provider refused the message: ValidationException' });
  });

  it('answers 502 for a send the provider did not confirm, and lets its delivery receipt mark it SENT, then DELIVERED, clearing the failure', async () => {
    provider.answerWith(refusal(500, 'InternalServerException'));
    const unconfirmed = await sendThroughApi('Maybe sent');
    expect(unconfirmed.status).toBe(502);
    expect(unconfirmed.body).toEqual({ message: `SMS provider did not confirm the message: InternalServerException; ${RECEIPT_WILL_SAY}` });
    expect(await messageItem(unconfirmed)).toMatchObject({ status: 'FAILED', unconfirmed: true });

    await receiptHandler(snsEvent(smsEvent('TEXT_DELIVERED', 'DELIVERED', 'Message has been accepted by phone', contextOf(unconfirmed))));
    expect(await statusOf(unconfirmed.client, unconfirmed)).toBe('DELIVERED');
    const item = await messageItem(unconfirmed);
    expect(item).toMatchObject({ status: 'DELIVERED', providerMessageId: 'eum-message-id' });
    expect(item).not.toHaveProperty('unconfirmed');
    expect(item).not.toHaveProperty('failureReason');
  });
});

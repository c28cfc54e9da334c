import { afterEach, describe, expect, it, vi } from 'vitest';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { createMember } from '../functions/organization/member-rules';
import { useTestApi } from './support/api';
import { itemsOf } from './support/fixtures';
import type { SNSEvent } from 'aws-lambda';
import { logger } from '#shared/observability';
import { handler as inboundHandler, INBOUND_MESSAGE_ID_MAX_LENGTH } from '../functions/sms/inbound';

const api = useTestApi();

afterEach(() => vi.restoreAllMocks());

/** A reply from a lead as `npm start`'s simulator takes it (POST /local/sms/inbound). */
const reply = (body: string) => fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('the local inbound SMS simulator', () => {
  it('answers a 5 MB body with 413 REQUEST_TOO_LARGE in the gateway’s envelope, records nothing and logs no error; a reply of normal size is still recorded', async () => {
    const { client, organizationId } = await api.organization();
    const number = '+61299977001';
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    expect((await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com.au', phone: '+61412345001' })).status).toBe(201);
    const before = await itemsOf(organizationId);
    const written: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, method).mockImplementation((...args) => void written.push(args.map(String).join(' ')));

    const huge = await reply(JSON.stringify({ from: '+61412345001', to: number, body: 'x'.repeat(5 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.REQUEST_TOO_LARGE));
    expect(await itemsOf(organizationId)).toEqual(before);
    expect(written.filter((line) => /"level":\s*"ERROR"/.test(line))).toEqual([]);

    // The same reply at its real size goes through: the 413 was the size, not the sender.
    expect((await reply(JSON.stringify({ from: '+61412345001', to: number, body: 'Yes, 10 works' }))).status).toBe(202);
    expect(await itemsOf(organizationId)).not.toEqual(before);
  });
});

describe('the local inbound SMS simulator refusing a body it cannot take', () => {
  const refusal = async (body: string) => {
    const res = await reply(body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return (await res.json()) as { success: false; message: string; error: { status: number; message: string; code: string; details?: unknown[] } };
  };

  it('answers 400 in the API’s error envelope, naming each field at fault, and records nothing', async () => {
    const { organizationId } = await api.organization();
    const before = await itemsOf(organizationId);
    expect(await refusal(JSON.stringify({ from: 61412345001, to: '+61299977002', body: 'Hi' }))).toEqual({
      success: false,
      message: 'from must be a string: the lead’s phone, e.g. +61412345001',
      error: { status: 400, message: 'from must be a string: the lead’s phone, e.g. +61412345001', code: 'VALIDATION_ERROR', details: [{ path: 'from', message: 'from must be a string: the lead’s phone, e.g. +61412345001' }] },
    });
    const missing = await refusal(JSON.stringify({ from: '+61412345001', inboundMessageId: 7 }));
    expect(missing.error.details).toEqual([
      { path: 'to', message: 'to is required' },
      { path: 'body', message: 'body is required' },
      { path: 'inboundMessageId', message: 'inboundMessageId must be a string' },
    ]);
    expect((await refusal(JSON.stringify({ from: '+61412345001', to: '+61299977002', body: 'Hi', channel: 'sms' }))).error.details).toEqual([{ path: 'channel', message: 'channel is not a known field' }]);
    // A sender that is no phone number could make no lead: refused, naming it.
    for (const from of ['Plumbers', '0412 345 001', '+0412345001']) {
      expect([from, (await refusal(JSON.stringify({ from, to: '+61299977002', body: 'Hi' }))).error.details]).toEqual([
        from,
        [{ path: 'from', message: 'from must be a phone number with its country code, as the provider names the sender: e.g. +61412345001' }],
      ]);
    }
    expect((await refusal('[]')).error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'body', message: expect.stringMatching(/^body must be a JSON object/) }] });
    expect(await refusal('{"from": ')).toEqual({ success: false, message: 'Request body must be valid JSON', error: { status: 400, message: 'Request body must be valid JSON', code: 'INVALID_JSON' } });
    expect(await itemsOf(organizationId)).toEqual(before);
  });
});

describe('the provider’s inboundMessageId, which goes into the reply’s key', () => {
  const tooLong = `inboundMessageId must be at most ${INBOUND_MESSAGE_ID_MAX_LENGTH} characters: the provider's id of the text`;

  it('answers 400 naming the field for an id of 100 KB, one character over the bound, or empty, records nothing, and takes one at the bound once when it comes twice at once', async () => {
    const { client, organizationId } = await api.organization();
    const number = '+61299977004';
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    expect((await client.post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412345002' })).status).toBe(201);
    const before = await itemsOf(organizationId);
    const post = (inboundMessageId: unknown) => reply(JSON.stringify({ from: '+61412345002', to: number, body: 'Yes, 10 works', inboundMessageId }));
    for (const [id, message] of [['x'.repeat(100 * 1024), tooLong], ['x'.repeat(INBOUND_MESSAGE_ID_MAX_LENGTH + 1), tooLong], ['', 'inboundMessageId must not be empty']] as const) {
      const res = await post(id);
      expect([id.length, res.status, ((await res.json()) as { error: { details: unknown } }).error.details]).toEqual([id.length, 400, [{ path: 'inboundMessageId', message }]]);
    }
    expect(await itemsOf(organizationId)).toEqual(before);

    const atTheBound = 'x'.repeat(INBOUND_MESSAGE_ID_MAX_LENGTH);
    expect((await Promise.all([post(atTheBound), post(atTheBound)])).map((res) => res.status)).toEqual([202, 202]);
    const recorded = (await itemsOf(organizationId)).map((item) => JSON.parse(item) as { sk: string }).filter((item) => item.sk.startsWith('INBOUNDSMS#'));
    expect(recorded.map((item) => item.sk)).toEqual([`INBOUNDSMS#${atTheBound}`]);
  });

  it('is bounded alike on the deployed path: a two-way message with a 100 KB id is ignored, with a warning, and nothing is written', async () => {
    const { client, organizationId } = await api.organization();
    const number = '+61299977005';
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    const before = await itemsOf(organizationId);
    const warned: unknown[] = [];
    vi.spyOn(logger, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args[0]));
    const message = { originationNumber: '+61412345003', destinationNumber: number, messageBody: 'Hi', inboundMessageId: 'x'.repeat(100 * 1024) };
    await inboundHandler({ Records: [{ Sns: { MessageId: 'sns-1', Message: JSON.stringify(message), Timestamp: new Date().toISOString() } }] } as unknown as SNSEvent);
    expect(warned).toEqual(['not a two-way SMS message; ignored']);
    expect(await itemsOf(organizationId)).toEqual(before);
  });
});

describe('STOP and START as carriers read them: the first word of the reply', () => {
  it('opts out a phone whose reply starts with an opt-out keyword, whatever follows it, and no other', async () => {
    const { client, organizationId } = await api.organization();
    const number = '+61299977003';
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
    const replies: Array<[string, boolean]> = [
      ['Stop please call me', true],
      ['stop!', true],
      ['STOP, thanks', true],
      ['  Unsubscribe me from these', true],
      ['Opt-out', true],
      ['Arrêt', true],
      ['Stopping by tomorrow', false],
      ["Don't stop", false],
      ['Endless thanks for the quote', false],
      ['Cancellation policy?', false],
    ];
    const leads = await Promise.all(
      replies.map(async (_, i) => {
        const phone = `+6141234${String(5100 + i)}`;
        return { phone, leadId: (await client.post('/v1/leads', { name: `Lead ${i}`, phone })).body.lead.id as string };
      }),
    );
    for (const [i, [text]] of replies.entries()) {
      expect((await reply(JSON.stringify({ from: leads[i]!.phone, to: number, body: text }))).status).toBe(202);
    }
    const optedOut = await Promise.all(leads.map(async ({ leadId }) => (await client.get(`/v1/leads/${leadId}`)).body.lead.smsOptedOut));
    expect(Object.fromEntries(replies.map(([text], i) => [text, optedOut[i]]))).toEqual(Object.fromEntries(replies));

    // The opt-out holds: an SMS to the lead who wrote "Stop please call me" is refused, until a reply that starts with START.
    const send = () => client.post('/v1/sms', { userId: member.user.id, leadId: leads[0]!.leadId, message: 'Calling you now' });
    expect((await send()).body.error?.code).toBe('OPTED_OUT');
    expect((await reply(JSON.stringify({ from: leads[0]!.phone, to: number, body: 'Start again please' }))).status).toBe(202);
    expect((await send()).status).toBe(201);
  });
});

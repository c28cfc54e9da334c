import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { inboundEndpointKeys } from './entity';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { useTestApi, type Client } from '../../test/support/api';
import { itemsOf } from '../../test/support/fixtures';
import { edited, endpoint, pathOf, platformPosts, RETELL_API_KEY, RETELL_CALL_ANALYZED, retellEndpoint, retellSignature, VAPI_END_OF_CALL_REPORT, vapiEndpoint, type Endpoint } from '../../test/support/call-platforms';

const api = useTestApi();

const { post, postRetell, postVapi } = platformPosts(api);

const HEX = '0123456789abcdef';
/** The same text with its last character swapped for another of the alphabet. */
const changeLastCharacter = (text: string, alphabet: string) => text.slice(0, -1) + alphabet[(alphabet.indexOf(text.at(-1)!) + 1) % alphabet.length];

async function nothingRecorded(client: Client) {
  expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
}

describe('a CALL endpoint of format retell', () => {
  it('records call_analyzed as Retell sends it: a CALL inquiry with its transcript, summary, recording, direction, duration, times and who hung up, for a new lead with the caller’s number', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const res = await postRetell(created, RETELL_CALL_ANALYZED);
    expect(res.status).toBe(201);
    const { inquiry } = res.body;
    expect(inquiry).toMatchObject({
      source: 'CALL',
      tag: 'GENERAL',
      summary: 'The caller reported a hot water system leaking from the bottom; a plumber was booked for 8am tomorrow.',
      isFirstInquiry: true,
      isRead: false,
      createdAt: '2024-05-02T00:07:55.945Z',
    });
    const read = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    expect(read.data).toEqual({
      id: expect.stringMatching(/^call_[0-9A-Z]{26}$/),
      summary: 'The caller reported a hot water system leaking from the bottom; a plumber was booked for 8am tomorrow.',
      keyPoints: [],
      recordingUrl: 'https://dxc03zgurdly9.cloudfront.net/Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6/recording.wav',
      // Each line at the call's start plus its first word's time; the agent is the assistant.
      transcripts: [
        { id: `${read.data.id}-t01`, created_at: '2024-05-02T00:07:56.465Z', text: 'Harbour City Plumbing, how can I help?', user: 'assistant' },
        { id: `${read.data.id}-t02`, created_at: '2024-05-02T00:07:59.159Z', text: 'Our hot water system is leaking from the bottom.', user: 'user' },
        { id: `${read.data.id}-t03`, created_at: '2024-05-02T00:08:02.045Z', text: 'I can book a plumber for tomorrow morning. Does 8am suit?', user: 'assistant' },
        { id: `${read.data.id}-t04`, created_at: '2024-05-02T00:08:05.995Z', text: 'Yes, thanks.', user: 'user' },
      ],
      transcriptTruncated: false,
      direction: 'LEAD_TO_AI',
      duration: 16,
      startedAt: '2024-05-02T00:07:55.945Z',
      endedAt: '2024-05-02T00:08:11.736Z',
      endedBy: 'user',
      endReason: 'user_hangup',
      // The caller's number on the call, and Retell's post-call analysis, as Retell sent them.
      leadPhone: '+61412555019',
      sentiment: 'Positive',
      successful: true,
      successEvaluation: null,
      analysisData: { job_type: 'hot water repair', urgent: true },
    });
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ phone: '+61412555019', email: null, unreadCalls: 1, lastInquiryId: inquiry.id });
    expect((await client.get('/v1/inquiries?expand=external')).body.inquiries).toMatchObject([{ id: inquiry.id, externalInquiryId: 'retell:Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6' }]);
  });

  it('finds the lead that has the caller’s number, and on an outbound call the number called, which the agent hung up', async () => {
    const { client } = await api.organization();
    const jane = (await client.post('/v1/leads', { name: 'Jane Citizen', phone: '+61412555019' })).body.lead;
    const sam = (await client.post('/v1/leads', { name: 'Sam Lee', phone: '+61412555031' })).body.lead;
    const created = await retellEndpoint(client);
    const inbound = await postRetell(created, RETELL_CALL_ANALYZED);
    expect(inbound.status).toBe(201);
    expect(inbound.body.inquiry.leadId).toBe(jane.id);

    const callback = edited(RETELL_CALL_ANALYZED, ({ call }) => {
      Object.assign(call, { call_id: 'call_outbound_7781', direction: 'outbound', from_number: '+61290001234', to_number: '+61412555031', disconnection_reason: 'agent_hangup' });
    });
    const outbound = await postRetell(created, callback);
    expect(outbound.status).toBe(201);
    expect(outbound.body.inquiry.leadId).toBe(sam.id);
    expect((await client.get(`/v1/inquiries/${outbound.body.inquiry.id}`)).body.data).toMatchObject({ direction: 'AI_TO_LEAD', endedBy: 'assistant' });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(2);
  });

  it('records a call Retell did not record with recordingUrl null, and one without analysis with the source as its summary', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const unrecorded = edited(RETELL_CALL_ANALYZED, ({ call }) => {
      delete call.recording_url;
      delete call.call_analysis;
    });
    const res = await postRetell(created, unrecorded);
    expect(res.status).toBe(201);
    expect(res.body.inquiry.summary).toBe('Call inquiry');
    expect((await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body.data).toMatchObject({ recordingUrl: null, summary: '' });
  });

  it('answers a redelivery of the same call id, newly signed, with 200 and the first inquiry’s ids, and writes nothing', async () => {
    const { client, organizationId } = await api.organization();
    const created = await retellEndpoint(client);
    const first = await postRetell(created, RETELL_CALL_ANALYZED, retellSignature(RETELL_CALL_ANALYZED, { at: Date.now() - 60_000 }));
    expect(first.status).toBe(201);
    const before = await itemsOf(organizationId);
    const again = await postRetell(created, RETELL_CALL_ANALYZED);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ inquiry: { id: first.body.inquiry.id, leadId: first.body.inquiry.leadId }, created: false });
    expect(await itemsOf(organizationId)).toEqual(before);
  });

  it('records one inquiry and one lead when the same call is posted twice at once', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const answers = await Promise.all([1, 2, 3].map(() => postRetell(created, RETELL_CALL_ANALYZED)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.inquiry.id)).size).toBe(1);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
    expect((await client.get(`/v1/leads/${answers[0]!.body.inquiry.leadId}`)).body.lead.unreadCalls).toBe(1);
  });

  it.each([
    ['call_started', (payload: any) => Object.assign(payload, { event: 'call_started' })],
    ['call_ended (call_analyzed follows with the summary)', (payload: any) => Object.assign(payload, { event: 'call_ended' })],
    ['a call_analyzed whose call never connected (dial_no_answer)', (payload: any) => {
      delete payload.call.start_timestamp;
      payload.call.disconnection_reason = 'dial_no_answer';
      payload.call.transcript_object = [];
    }],
  ])('acknowledges %s with 204 and records nothing', async (_, change) => {
    const { client, organizationId } = await api.organization();
    const created = await retellEndpoint(client);
    const before = await itemsOf(organizationId);
    const res = await postRetell(created, edited(RETELL_CALL_ANALYZED, change));
    expect(res.status).toBe(204);
    expect(await itemsOf(organizationId)).toEqual(before);
  });

  it.each([
    ['a signature with its last hex digit changed', (body: string) => ({ body, signature: changeLastCharacter(retellSignature(body), HEX) })],
    ['a signature timestamped 6 minutes ago', (body: string) => ({ body, signature: retellSignature(body, { at: Date.now() - 6 * 60_000 }) })],
    ['a signature timestamped 6 minutes ahead', (body: string) => ({ body, signature: retellSignature(body, { at: Date.now() + 6 * 60_000 }) })],
    ['a body changed by one byte after signing', (body: string) => ({ body: body.replace('"+61412555019"', '"+61412555018"'), signature: retellSignature(body) })],
    ['a signature made with another API key', (body: string) => ({ body, signature: retellSignature(body, { key: changeLastCharacter(RETELL_API_KEY, HEX) }) })],
    ['a signature without its timestamp', (body: string) => ({ body, signature: retellSignature(body).replace(/^v=\d+,/, '') })],
  ])('answers 401 for %s, and records nothing', async (_, request) => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const { body, signature } = request(RETELL_CALL_ANALYZED);
    const res = await postRetell(created, body, signature);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED));
    // Word for word the gateway's 401, headers too, so an endpoint's id cannot be told from an unknown one.
    expect(res.headers.get('www-authenticate')).toBe(GATEWAY_RESPONSES.UNAUTHORIZED.headers['WWW-Authenticate']);
    await nothingRecorded(client);
  });

  it('answers 401 without x-retell-signature, even with the endpoint’s token in the URL, and records nothing', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const withToken = created.url.slice(api.url.length);
    expect((await post(pathOf(created), RETELL_CALL_ANALYZED, {})).status).toBe(401);
    expect((await post(withToken, RETELL_CALL_ANALYZED, {})).status).toBe(401);
    await nothingRecorded(client);
  });

  it('accepts a signature timestamped 4 minutes ago or ahead (clock skew either way)', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    for (const minutes of [-4, 4]) {
      const body = edited(RETELL_CALL_ANALYZED, ({ call }) => (call.call_id = `call_skew_${minutes + 10}`));
      expect((await postRetell(created, body, retellSignature(body, { at: Date.now() + minutes * 60_000 }))).status, `${minutes} minutes`).toBe(201);
    }
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(2);
  });

  it.each([
    ['no call_id', (payload: any) => delete payload.call.call_id, 'call.call_id'],
    ['an empty call_id', (payload: any) => (payload.call.call_id = ''), 'call.call_id'],
    ['a call that is not an object', (payload: any) => (payload.call = 'Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6'), 'call'],
    ['no event', (payload: any) => delete payload.event, 'event'],
    ['a web call, which has no caller number', (payload: any) => Object.assign(payload.call, { call_type: 'web_call', direction: undefined, from_number: undefined, to_number: undefined }), 'call.from_number'],
    ['a caller number that is not E.164', (payload: any) => (payload.call.from_number = 'anonymous'), 'call.from_number'],
    ['a transcript that is not an array', (payload: any) => (payload.call.transcript_object = 'Agent: hello'), 'call.transcript_object'],
    ['an end before the start', (payload: any) => (payload.call.end_timestamp = payload.call.start_timestamp - 1), 'call.end_timestamp'],
  ])('answers 400 for a call_analyzed with %s, naming the field, and records nothing', async (_, change, field) => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const res = await postRetell(created, edited(RETELL_CALL_ANALYZED, change));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: field })] });
    await nothingRecorded(client);
  });

  it('answers 400 INVALID_JSON for a signed body that is not JSON, and 415 for one that is not sent as JSON', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const broken = '{"event":"call_analyzed","call":';
    const invalid = await postRetell(created, broken);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('INVALID_JSON');
    const form = await post(pathOf(created), 'event=call_analyzed', { 'content-type': 'application/x-www-form-urlencoded', 'x-retell-signature': retellSignature('event=call_analyzed') });
    expect(form.status).toBe(415);
    await nothingRecorded(client);
  });
});

describe('a CALL endpoint of format vapi', () => {
  it('records end-of-call-report as Vapi sends it, with x-vapi-secret holding the endpoint’s secret: the spoken turns, the summary, the mono recording, and the customer as a new lead with their name', async () => {
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    expect(created.secret).toMatch(/^whsec_/);
    const res = await postVapi(created, VAPI_END_OF_CALL_REPORT);
    expect(res.status).toBe(201);
    const { inquiry } = res.body;
    expect(inquiry).toMatchObject({ source: 'CALL', summary: 'Half the kitchen power points stopped working; an electrician was booked for 2pm today.', createdAt: '2024-05-23T20:09:50.512Z' });
    const { data } = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    expect(data).toEqual({
      id: expect.stringMatching(/^call_[0-9A-Z]{26}$/),
      summary: 'Half the kitchen power points stopped working; an electrician was booked for 2pm today.',
      keyPoints: [],
      recordingUrl: 'https://storage.vapi.ai/0e6bd1c4-7d2f-4a4e-9c9d-5f3a0b8e2a71-1716495621886-mono.wav',
      // The system prompt and the tool lines are not speech.
      transcripts: [
        { id: `${data.id}-t01`, created_at: '2024-05-23T20:09:51.203Z', text: 'Harbour City Electrical, how can I help?', user: 'assistant' },
        { id: `${data.id}-t02`, created_at: '2024-05-23T20:09:54.110Z', text: 'Half the power points in my kitchen stopped working.', user: 'user' },
        { id: `${data.id}-t03`, created_at: '2024-05-23T20:09:59.250Z', text: 'An electrician can come at 2pm today. I have booked that for you.', user: 'assistant' },
      ],
      transcriptTruncated: false,
      direction: 'LEAD_TO_AI',
      duration: 31,
      startedAt: '2024-05-23T20:09:50.512Z',
      endedAt: '2024-05-23T20:10:21.771Z',
      endedBy: 'user',
      endReason: 'customer-ended-call',
      // The customer's number, and Vapi's analysis: its pass/fail evaluation read as success, its structured data as sent.
      leadPhone: '+61412555020',
      sentiment: null,
      successful: true,
      successEvaluation: 'true',
      analysisData: { jobType: 'electrical fault', bookedFor: '14:00' },
    });
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ firstName: 'Tom', lastName: 'Brennan', phone: '+61412555020', unreadCalls: 1 });
    expect((await client.get('/v1/inquiries?expand=external')).body.inquiries).toMatchObject([{ externalInquiryId: 'vapi:0e6bd1c4-7d2f-4a4e-9c9d-5f3a0b8e2a71' }]);
  });

  it('records a post authenticated by Vapi’s default Bearer Token credential, Authorization: Bearer <the endpoint’s secret>, and answers 401 for any other bearer', async () => {
    // docs.vapi.ai/server-url/server-authentication: a Bearer Token custom credential sends `Authorization: Bearer
    // <token>` by default; `x-vapi-secret` is the inline `secret` kept for backward compatibility.
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    const other = await vapiEndpoint(client);
    const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
    for (const headers of [bearer(`whsec_${Buffer.alloc(32, 9).toString('base64')}`), bearer(other.secret), { authorization: `Basic ${created.secret}` }, { ...bearer(created.secret), 'x-vapi-secret': other.secret }]) {
      const res = await post(pathOf(created), VAPI_END_OF_CALL_REPORT, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED));
    }
    await nothingRecorded(client);
    const res = await post(pathOf(created), VAPI_END_OF_CALL_REPORT, bearer(created.secret));
    expect(res.status).toBe(201);
    expect(res.body.inquiry).toMatchObject({ source: 'CALL', summary: 'Half the kitchen power points stopped working; an electrician was booked for 2pm today.' });
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
  });

  it('reads an outbound call’s customer as the lead, the assistant ending it, and a report of the older shape (recording, summary and messages at the top)', async () => {
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    const older = edited(VAPI_END_OF_CALL_REPORT, ({ message }) => {
      message.messages = message.artifact.messages;
      delete message.artifact;
      delete message.analysis;
      message.recordingUrl = 'https://storage.vapi.ai/older-mono.wav';
      Object.assign(message, { endedReason: 'assistant-ended-call', customer: undefined });
      Object.assign(message.call, { id: 'a4c1e2f3-0000-4000-8000-000000000001', type: 'outboundPhoneCall', customer: { number: '+61412555044' } });
    });
    const res = await postVapi(created, older);
    expect(res.status).toBe(201);
    expect((await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body.data).toMatchObject({
      direction: 'AI_TO_LEAD',
      endedBy: 'assistant',
      recordingUrl: 'https://storage.vapi.ai/older-mono.wav',
      summary: 'Half the kitchen power points stopped working; an electrician was booked for 2pm today.',
      transcripts: [{ user: 'assistant' }, { user: 'user' }, { user: 'assistant' }],
    });
    expect((await client.get(`/v1/leads/${res.body.inquiry.leadId}`)).body.lead.phone).toBe('+61412555044');
  });

  it('answers a redelivery of the same call with 200 and the first inquiry’s ids, and writes nothing', async () => {
    const { client, organizationId } = await api.organization();
    const created = await vapiEndpoint(client);
    const first = await postVapi(created, VAPI_END_OF_CALL_REPORT);
    expect(first.status).toBe(201);
    const before = await itemsOf(organizationId);
    const again = await postVapi(created, VAPI_END_OF_CALL_REPORT);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ inquiry: { id: first.body.inquiry.id, leadId: first.body.inquiry.leadId }, created: false });
    expect(await itemsOf(organizationId)).toEqual(before);
  });

  it.each([
    ['status-update', (payload: any) => Object.assign(payload.message, { type: 'status-update', status: 'ended' })],
    ['conversation-update', (payload: any) => Object.assign(payload.message, { type: 'conversation-update' })],
    ['an end-of-call-report of a call the customer did not answer', (payload: any) => {
      Object.assign(payload.message, { endedReason: 'customer-did-not-answer', startedAt: undefined });
      delete payload.message.call.startedAt;
    }],
  ])('acknowledges %s with 204 and records nothing', async (_, change) => {
    const { client, organizationId } = await api.organization();
    const created = await vapiEndpoint(client);
    const before = await itemsOf(organizationId);
    const res = await postVapi(created, edited(VAPI_END_OF_CALL_REPORT, change));
    expect(res.status).toBe(204);
    expect(await itemsOf(organizationId)).toEqual(before);
  });

  it('answers 401 for a missing x-vapi-secret, the secret with its last character changed, another endpoint’s secret, the token alone, or a secret rotated out, and records nothing', async () => {
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    const other = await vapiEndpoint(client);
    const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const digits = created.secret.replace(/=+$/, '');
    const nearly = changeLastCharacter(digits, BASE64) + created.secret.slice(digits.length);
    for (const headers of [{}, { 'x-vapi-secret': nearly }, { 'x-vapi-secret': other.secret }, { 'x-vapi-secret': '' }] as Record<string, string>[]) {
      const res = await post(pathOf(created), VAPI_END_OF_CALL_REPORT, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED));
    }
    expect((await post(created.url.slice(api.url.length), VAPI_END_OF_CALL_REPORT, {})).status).toBe(401);
    const rotated = (await client.post(`/v1/inbound-endpoints/${created.id}/rotate`)).body.inboundEndpoint;
    expect((await postVapi(created, VAPI_END_OF_CALL_REPORT)).status).toBe(401);
    await nothingRecorded(client);
    expect((await postVapi({ ...created, secret: rotated.secret }, VAPI_END_OF_CALL_REPORT)).status).toBe(201);
  });

  it.each([
    ['no call id', (payload: any) => delete payload.message.call.id, 'message.call.id'],
    ['no call', (payload: any) => delete payload.message.call, 'message.call'],
    ['no message type', (payload: any) => delete payload.message.type, 'message.type'],
    ['a web call, which has no customer number', (payload: any) => {
      delete payload.message.customer;
      Object.assign(payload.message.call, { type: 'webCall', customer: undefined });
    }, 'message.customer.number'],
    ['a start that is not a date', (payload: any) => (payload.message.startedAt = 'yesterday-ish'), 'message.startedAt'],
    ['no end', (payload: any) => {
      delete payload.message.endedAt;
      delete payload.message.call.endedAt;
    }, 'message.endedAt'],
  ])('answers 400 for an end-of-call-report with %s, naming the field, and records nothing', async (_, change, field) => {
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    const res = await postVapi(created, edited(VAPI_END_OF_CALL_REPORT, change));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: field })] });
    await nothingRecorded(client);
  });
});

describe('what a voice platform sent beside the transcript', () => {
  it('reads Retell’s event under event_type, as parts of its documentation spell it, and still acknowledges other events with 204', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const renamed = (event: string) => edited(RETELL_CALL_ANALYZED, (payload) => {
      delete payload.event;
      payload.event_type = event;
    });
    expect((await postRetell(created, renamed('call_ended'))).status).toBe(204);
    await nothingRecorded(client);
    const res = await postRetell(created, renamed('call_analyzed'));
    expect(res.status).toBe(201);
    expect((await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body.data).toMatchObject({ leadPhone: '+61412555019', sentiment: 'Positive' });
  });

  it('keeps an outbound Retell call’s number called as the lead’s, an unsuccessful call as successful false, and a call without analysis with each analysis field null', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const outbound = edited(RETELL_CALL_ANALYZED, ({ call }) => {
      Object.assign(call, { call_id: 'outbound-1', direction: 'outbound' });
      Object.assign(call.call_analysis, { user_sentiment: 'Negative', call_successful: false });
    });
    const first = await postRetell(created, outbound);
    expect(first.status).toBe(201);
    expect((await client.get(`/v1/inquiries/${first.body.inquiry.id}`)).body.data).toMatchObject({ leadPhone: '+61290001234', sentiment: 'Negative', successful: false });
    const bare = edited(RETELL_CALL_ANALYZED, ({ call }) => {
      call.call_id = 'no-analysis-1';
      delete call.call_analysis;
    });
    const second = await postRetell(created, bare);
    expect(second.status).toBe(201);
    expect((await client.get(`/v1/inquiries/${second.body.inquiry.id}`)).body.data).toMatchObject({ leadPhone: '+61412555019', sentiment: null, successful: null, successEvaluation: null, analysisData: null });
  });

  it('records a platform’s post, which carries no Origin, on an endpoint with enforceOrigin set: the setting is for browsers’ posts', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { format: 'vapi', allowedOrigins: ['https://plumbing.example.com'], enforceOrigin: true });
    expect((await postVapi(created, VAPI_END_OF_CALL_REPORT)).status).toBe(201);
  });

  it('records Vapi’s artifact.stereoRecordingUrl when the report has no other recording', async () => {
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    const stereoOnly = edited(VAPI_END_OF_CALL_REPORT, ({ message }) => {
      delete message.artifact.recording;
      delete message.artifact.recordingUrl;
      delete message.recordingUrl;
      delete message.stereoRecordingUrl;
    });
    const res = await postVapi(created, stereoOnly);
    expect(res.status).toBe(201);
    expect((await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body.data.recordingUrl).toBe('https://storage.vapi.ai/0e6bd1c4-7d2f-4a4e-9c9d-5f3a0b8e2a71-1716495621886-stereo.wav');
  });

  it('keeps a Vapi evaluation of another rubric as sent, with successful null, and structured data that is not an object under its own name', async () => {
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    const graded = edited(VAPI_END_OF_CALL_REPORT, ({ message }) => {
      Object.assign(message.analysis, { successEvaluation: '8', structuredData: ['hot water', 'urgent'] });
    });
    const res = await postVapi(created, graded);
    expect(res.status).toBe(201);
    expect((await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body.data).toMatchObject({ successful: null, successEvaluation: '8', analysisData: { structuredData: ['hot water', 'urgent'] } });
  });

  it.each([
    ['retell', 'a start in the future', (payload: any) => Object.assign(payload.call, { start_timestamp: Date.now() + 86_400_000, end_timestamp: Date.now() + 86_460_000 }), 'call.start_timestamp'],
    ['retell', 'a recording URL that is not http', (payload: any) => (payload.call.recording_url = 'ftp://recordings.example.com/1.wav'), 'call.recording_url'],
    ['retell', 'a sentiment of 101 characters', (payload: any) => (payload.call.call_analysis.user_sentiment = 'x'.repeat(101)), 'call.call_analysis.user_sentiment'],
    ['vapi', 'a start in the future', (payload: any) => Object.assign(payload.message, { startedAt: new Date(Date.now() + 86_400_000).toISOString(), endedAt: new Date(Date.now() + 86_460_000).toISOString() }), 'message.startedAt'],
    ['vapi', 'structured data of 40 KB', (payload: any) => (payload.message.analysis.structuredData = { notes: 'x'.repeat(40 * 1024) }), 'message.analysis.structuredData'],
  ])('answers a %s call with %s 400 naming the platform’s field, and records nothing', async (platform, _, change, field) => {
    const { client } = await api.organization();
    const created = platform === 'retell' ? await retellEndpoint(client) : await vapiEndpoint(client);
    const body = edited(platform === 'retell' ? RETELL_CALL_ANALYZED : VAPI_END_OF_CALL_REPORT, change);
    const res = platform === 'retell' ? await postRetell(created, body) : await postVapi(created, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: field, message: expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')} `)) }]);
    await nothingRecorded(client);
  });
});

describe('the format of an inbound endpoint', () => {
  it('is native unless set, and a native CALL endpoint still takes POST /v1/inquiries’ body, not a platform’s webhook', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, {});
    expect(created.format).toBe('native');
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body.inboundEndpoint.format).toBe('native');
    const res = await api.anonymous.request('POST', created.url.slice(api.url.length), { rawBody: RETELL_CALL_ANALYZED, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    await nothingRecorded(client);
  });

  it('reads an endpoint stored before formats existed as native, and a PATCH moves it to vapi', async () => {
    const { client, organizationId } = await api.organization();
    const created = await endpoint(client, {});
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: inboundEndpointKeys.inboundEndpoint(organizationId, created.id), UpdateExpression: 'REMOVE #format', ExpressionAttributeNames: { '#format': 'format' } }));
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body.inboundEndpoint.format).toBe('native');
    expect((await client.patch(`/v1/inbound-endpoints/${created.id}`, { format: 'vapi' })).body.inboundEndpoint.format).toBe('vapi');
    expect((await postVapi(created, VAPI_END_OF_CALL_REPORT)).status).toBe(201);
  });

  it('never answers platformSecret: not on create, read, list or PATCH', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    expect(created.format).toBe('retell');
    const answers = [
      created,
      (await client.get(`/v1/inbound-endpoints/${created.id}`)).body,
      (await client.get('/v1/inbound-endpoints')).body,
      (await client.patch(`/v1/inbound-endpoints/${created.id}`, { name: 'Retell agent', platformSecret: `${RETELL_API_KEY}x` })).body,
    ];
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain(RETELL_API_KEY);
      expect(JSON.stringify(answer)).not.toContain('platformSecret');
    }
  });

  it('takes a new platformSecret with PATCH: posts signed with the new key are recorded, with the old one refused', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const newKey = 'key_0a1b2c3d4e5f60718293a4b5c6d7';
    expect((await client.patch(`/v1/inbound-endpoints/${created.id}`, { platformSecret: newKey })).status).toBe(200);
    expect((await postRetell(created, RETELL_CALL_ANALYZED)).status).toBe(401);
    expect((await postRetell(created, RETELL_CALL_ANALYZED, retellSignature(RETELL_CALL_ANALYZED, { key: newKey }))).status).toBe(201);
  });

  it.each([
    ['retell on a WEBFORM endpoint', { source: 'WEBFORM', format: 'retell', platformSecret: RETELL_API_KEY }, 'format'],
    ['vapi on an EMAIL endpoint', { source: 'EMAIL', format: 'vapi' }, 'format'],
    ['retell without platformSecret', { format: 'retell' }, 'platformSecret'],
    ['a platformSecret with format vapi', { format: 'vapi', platformSecret: RETELL_API_KEY }, 'platformSecret'],
    ['a platformSecret on a native endpoint', { platformSecret: RETELL_API_KEY }, 'platformSecret'],
    ['an unknown format', { format: 'twilio' }, 'format'],
    ['an empty platformSecret', { format: 'retell', platformSecret: ' ' }, 'platformSecret'],
  ])('refuses to create an endpoint with %s: 400 naming the field, nothing created', async (_, body, field) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/inbound-endpoints', { name: 'Voice receptionist', source: 'CALL', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get('/v1/inbound-endpoints')).body.totalCount).toBe(0);
  });

  it.each([
    ['format vapi on a WEBFORM endpoint', { source: 'WEBFORM' }, { format: 'vapi' }, 'format'],
    ['source EMAIL on a vapi endpoint', { format: 'vapi' }, { source: 'EMAIL' }, 'source'],
    ['source WEBFORM with format retell', { format: 'retell', platformSecret: RETELL_API_KEY }, { source: 'WEBFORM', format: 'retell' }, 'format'],
    ['format retell on an endpoint without a platformSecret', { format: 'vapi' }, { format: 'retell' }, 'platformSecret'],
    ['a platformSecret on a vapi endpoint', { format: 'vapi' }, { platformSecret: RETELL_API_KEY }, 'platformSecret'],
  ])('refuses a PATCH setting %s: 400 naming the field, nothing changed', async (_, start, change, field) => {
    const { client } = await api.organization();
    const created = await endpoint(client, start);
    const before = (await client.get(`/v1/inbound-endpoints/${created.id}`)).body;
    const res = await client.patch(`/v1/inbound-endpoints/${created.id}`, change);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body).toEqual(before);
  });

  it('moves an endpoint between formats with PATCH: leaving retell drops its key, so going back needs one again; a WEBFORM endpoint becomes a vapi one with source and format together', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const native = await client.patch(`/v1/inbound-endpoints/${created.id}`, { format: 'native' });
    expect(native.body.inboundEndpoint).toMatchObject({ source: 'CALL', format: 'native' });
    expect((await client.patch(`/v1/inbound-endpoints/${created.id}`, { format: 'retell' })).body.error.details[0].path).toBe('platformSecret');
    expect((await client.patch(`/v1/inbound-endpoints/${created.id}`, { format: 'retell', platformSecret: RETELL_API_KEY })).body.inboundEndpoint.format).toBe('retell');
    expect((await postRetell(created, RETELL_CALL_ANALYZED)).status).toBe(201);

    const form = await endpoint(client, { source: 'WEBFORM' });
    const vapi = await client.patch(`/v1/inbound-endpoints/${form.id}`, { source: 'CALL', format: 'vapi' });
    expect(vapi.body.inboundEndpoint).toMatchObject({ source: 'CALL', format: 'vapi' });
    expect((await postVapi(form, VAPI_END_OF_CALL_REPORT)).status).toBe(201);
  });

  it('answers 404 for a format change of another organization’s endpoint', async () => {
    const owner = await api.organization();
    const created = await endpoint(owner.client, {});
    const { client } = await api.organization();
    expect((await client.patch(`/v1/inbound-endpoints/${created.id}`, { format: 'vapi' })).status).toBe(404);
    expect((await owner.client.get(`/v1/inbound-endpoints/${created.id}`)).body.inboundEndpoint.format).toBe('native');
  });
});

describe('a long call’s webhook', () => {
  /** A sentence of speech as Retell writes it in transcript_object: its words, each timed in seconds of audio from the start. */
  const retellUtterance = (role: string, content: string, start: number) => ({
    role,
    content,
    words: content.split(' ').map((word, index) => ({ word, start: Math.round((start + index * 0.25) * 1000) / 1000, end: Math.round((start + index * 0.25 + 0.2) * 1000) / 1000 })),
  });

  it('records a Retell call of 1,500 utterances, one of 12,000 characters, with its summary, numbers and times whole and its first 1,000 lines, flagged transcriptTruncated', async () => {
    const { client } = await api.organization();
    const created = await retellEndpoint(client);
    const contents = Array.from({ length: 1_500 }, (_, index) => `${index + 1}. About the leaking hot water system under the house, and when someone can come.`);
    contents[2] = `A long description: ${'the water runs down the wall '.repeat(420)}`.trim();
    let payload = '';
    payload = edited(RETELL_CALL_ANALYZED, ({ call }) => {
      const utterances = contents.map((content, index) => retellUtterance(index % 2 ? 'user' : 'agent', content, index * 3.5));
      // Retell sends the transcript as text, as lines with word timings, and again with the tool calls among them.
      Object.assign(call, { transcript: contents.join('\n'), transcript_object: utterances, transcript_with_tool_calls: utterances, end_timestamp: call.start_timestamp + 1_500 * 3_500, duration_ms: 1_500 * 3_500 });
    });
    expect(payload.length).toBeGreaterThan(1024 * 1024);
    const res = await postRetell(created, payload);
    expect(res.status).toBe(201);
    expect(res.body.inquiry).toMatchObject({ summary: 'The caller reported a hot water system leaking from the bottom; a plumber was booked for 8am tomorrow.', createdAt: '2024-05-02T00:07:55.945Z' });
    const { data } = (await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body;
    expect({ ...data, transcripts: undefined }).toEqual({
      id: expect.stringMatching(/^call_[0-9A-Z]{26}$/),
      summary: 'The caller reported a hot water system leaking from the bottom; a plumber was booked for 8am tomorrow.',
      keyPoints: [],
      recordingUrl: 'https://dxc03zgurdly9.cloudfront.net/Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6/recording.wav',
      transcripts: undefined,
      transcriptTruncated: true,
      direction: 'LEAD_TO_AI',
      duration: 5_250,
      startedAt: '2024-05-02T00:07:55.945Z',
      endedAt: '2024-05-02T01:35:25.945Z',
      endedBy: 'user',
      endReason: 'user_hangup',
      leadPhone: '+61412555019',
      sentiment: 'Positive',
      successful: true,
      successEvaluation: null,
      analysisData: { job_type: 'hot water repair', urgent: true },
    });
    // The first 1,000 lines as spoken, the long one cut at 10,000 characters.
    const expected = contents.slice(0, 1_000).map((text, index) => (index === 2 ? text.slice(0, 10_000) : text));
    expect(data.transcripts.map((line: { text: string }) => line.text)).toEqual(expected);
    expect(data.transcripts.at(-1)).toEqual({ id: `${data.id}-t1000`, created_at: new Date(1714608475945 + 999 * 3_500).toISOString(), text: expected.at(-1), user: 'user' });
    expect((await client.get(`/v1/leads/${res.body.inquiry.leadId}`)).body.lead).toMatchObject({ phone: '+61412555019', unreadCalls: 1 });
  });

  it('records a Vapi call whose transcript would pass the record’s 400 KB with the lines that fit, first to last, flagged transcriptTruncated', async () => {
    const { client } = await api.organization();
    const created = await vapiEndpoint(client);
    const started = Date.parse('2024-05-23T20:09:50.512Z');
    // 600 turns of about 1 KB each, accents and an emoji among them: more than a record holds, fewer lines than it takes.
    const texts = Array.from({ length: 600 }, (_, index) => `${index + 1}. ${'Power is out in half the kitchen, the café fridge too ☕ — '.repeat(16)}`.trim());
    const payload = edited(VAPI_END_OF_CALL_REPORT, ({ message }) => {
      message.artifact.messages = texts.map((text, index) => ({ role: index % 2 ? 'user' : 'bot', message: text, time: started + index * 4_000, endTime: started + index * 4_000 + 3_500, secondsFromStart: index * 4 }));
      message.artifact.transcript = texts.join('\n');
      message.endedAt = new Date(started + 600 * 4_000).toISOString();
    });
    const res = await postVapi(created, payload);
    expect(res.status).toBe(201);
    const { data } = (await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body;
    expect(data).toMatchObject({
      summary: 'Half the kitchen power points stopped working; an electrician was booked for 2pm today.',
      recordingUrl: 'https://storage.vapi.ai/0e6bd1c4-7d2f-4a4e-9c9d-5f3a0b8e2a71-1716495621886-mono.wav',
      transcriptTruncated: true,
      direction: 'LEAD_TO_AI',
      duration: 2_400,
      startedAt: '2024-05-23T20:09:50.512Z',
      endedAt: '2024-05-23T20:49:50.512Z',
      endedBy: 'user',
    });
    const kept = data.transcripts.map((line: { text: string }) => line.text);
    expect(kept).toEqual(texts.slice(0, kept.length));
    // As many as fit: the record is within a line of DynamoDB's 400 KB item, and not over it.
    const bytes = Buffer.byteLength(JSON.stringify(data));
    expect(kept.length).toBeLessThan(texts.length);
    expect(bytes).toBeGreaterThan(400 * 1024 - 4 * 1024);
    expect(bytes).toBeLessThan(400 * 1024);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { edited, platformPosts, RETELL_CALL_ANALYZED, retellEndpoint, VAPI_END_OF_CALL_REPORT, vapiEndpoint } from '../../test/support/call-platforms';

/**
 * A call's outcome (docs/inquiry-sources.md, "Call outcome"), as each way a call arrives records it: a voice platform's
 * webhook, log_call over MCP, POST /v1/inquiries. Then what the reports count of it.
 */

const api = useTestApi({ events: true });
const { postRetell, postVapi } = platformPosts(api);

/** Retell's call_analyzed of the fixture, as a call of its own that lasted `seconds` and ended for `reason`. */
const retellCall = (reason: string, seconds: number, change: (call: any) => void = () => {}) =>
  edited(RETELL_CALL_ANALYZED, ({ call }) => {
    Object.assign(call, { call_id: `call_${randomUUID()}`, disconnection_reason: reason, end_timestamp: call.start_timestamp + seconds * 1000 });
    change(call);
  });

/** Vapi's end-of-call-report of the fixture, as a call of its own that lasted `seconds` and ended for `reason`. */
const vapiCall = (reason: string, seconds: number) =>
  edited(VAPI_END_OF_CALL_REPORT, ({ message }) => {
    Object.assign(message, { endedReason: reason, endedAt: new Date(Date.parse(message.startedAt) + seconds * 1000).toISOString() });
    message.call.id = randomUUID();
  });

/** The outcome the inquiry recorded from a post is answered with. */
function outcomeOf(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.inquiry.callOutcome;
}

/** log_call over /mcp as JSON-RPC: the inquiry's outcome. */
async function loggedOutcome(client: Client, args: Record<string, unknown>) {
  const res = await client.post('/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'log_call', arguments: { phone: '+61412555071', summary: 'Asked about a blocked drain.', ...args } } });
  expect(res.status).toBe(200);
  expect(res.body.result.isError ?? false, res.body.result.content[0]?.text).toBe(false);
  return res.body.result.structuredContent.inquiry.callOutcome;
}

const callBody = (data: Record<string, unknown>) => ({ source: 'CALL', lead: { phone: '+61412555072' }, data: { summary: 'Asked for a quote.', ...data } });
const ingestedOutcome = async (client: Client, data: Record<string, unknown>) => outcomeOf(await client.post('/v1/inquiries', callBody(data)));

describe('a call’s outcome', () => {
  it('is TRANSFERRED when the platform handed the call over: Retell call_transfer, Vapi assistant-forwarded-call', async () => {
    const { client } = await api.organization();
    const [retell, vapi] = [await retellEndpoint(client), await vapiEndpoint(client)];
    expect(outcomeOf(await postRetell(retell, retellCall('call_transfer', 90)))).toBe('TRANSFERRED');
    expect(outcomeOf(await postVapi(vapi, vapiCall('assistant-forwarded-call', 90)))).toBe('TRANSFERRED');
    // The fixtures as sent: the caller hung up after 16 and 31 seconds.
    expect(outcomeOf(await postRetell(retell, RETELL_CALL_ANALYZED))).toBe('ANSWERED');
    expect(outcomeOf(await postVapi(vapi, VAPI_END_OF_CALL_REPORT))).toBe('ANSWERED');
  });

  it('is MISSED when the platform ended the call unserved: Retell inactivity or error_…, Vapi silence-timed-out or a reason naming an error', async () => {
    const { client } = await api.organization();
    const [retell, vapi] = [await retellEndpoint(client), await vapiEndpoint(client)];
    for (const reason of ['inactivity', 'error_llm_websocket_open']) expect(outcomeOf(await postRetell(retell, retellCall(reason, 60))), reason).toBe('MISSED');
    for (const reason of ['silence-timed-out', 'pipeline-error-openai-llm-failed', 'assistant-error']) expect(outcomeOf(await postVapi(vapi, vapiCall(reason, 60))), reason).toBe('MISSED');
    // A minute long, ended by the agent or the caller for any other reason: answered.
    expect(outcomeOf(await postRetell(retell, retellCall('agent_hangup', 60)))).toBe('ANSWERED');
    expect(outcomeOf(await postVapi(vapi, vapiCall('assistant-ended-call', 60)))).toBe('ANSWERED');
  });

  it('is MISSED when the caller hung up in under 15 seconds, ANSWERED from 15 seconds and when the agent hung up', async () => {
    const { client } = await api.organization();
    const [retell, vapi] = [await retellEndpoint(client), await vapiEndpoint(client)];
    expect(outcomeOf(await postRetell(retell, retellCall('user_hangup', 14)))).toBe('MISSED');
    expect(outcomeOf(await postRetell(retell, retellCall('user_hangup', 0)))).toBe('MISSED');
    expect(outcomeOf(await postVapi(vapi, vapiCall('customer-ended-call', 9)))).toBe('MISSED');
    expect(outcomeOf(await postRetell(retell, retellCall('user_hangup', 15)))).toBe('ANSWERED');
    expect(outcomeOf(await postRetell(retell, retellCall('agent_hangup', 5)))).toBe('ANSWERED');
  });

  it('follows the sender’s missed flag first, then transferred: true, from log_call and POST /v1/inquiries', async () => {
    const { client } = await api.organization();
    expect(await loggedOutcome(client, { missed: true, duration: 300 })).toBe('MISSED');
    expect(await loggedOutcome(client, { transferred: true, duration: 300 })).toBe('TRANSFERRED');
    expect(await ingestedOutcome(client, { missed: true, transferred: true, duration: 300 })).toBe('MISSED');
    expect(await ingestedOutcome(client, { transferred: true, endReason: 'inactivity' })).toBe('TRANSFERRED');
    // Not missed, by the sender's word, though the caller hung up after 5 seconds.
    expect(await ingestedOutcome(client, { missed: false, duration: 5, endedBy: 'user' })).toBe('ANSWERED');
    expect(await ingestedOutcome(client, { missed: false, duration: 5, endedBy: 'user', transferred: true })).toBe('TRANSFERRED');
  });

  it('counts a short call by the duration a sender gives, never by log_call’s default of 0 seconds', async () => {
    const { client } = await api.organization();
    expect(await loggedOutcome(client, {})).toBe('ANSWERED');
    expect(await loggedOutcome(client, { duration: 8 })).toBe('MISSED');
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    expect(await ingestedOutcome(client, { startedAt, endedAt: new Date(Date.parse(startedAt) + 6_000).toISOString() })).toBe('MISSED');
    expect(await ingestedOutcome(client, { duration: 8, endedBy: 'assistant' })).toBe('ANSWERED');
  });

  it('is null for a call the agent made and for other sources, and the single read answers it too', async () => {
    const { client } = await api.organization();
    const retell = await retellEndpoint(client);
    const outbound = retellCall('user_hangup', 5, (call) => Object.assign(call, { direction: 'outbound', from_number: '+61290001234', to_number: '+61412555031' }));
    expect(outcomeOf(await postRetell(retell, outbound))).toBeNull();
    expect(await ingestedOutcome(client, { direction: 'AI_TO_LEAD', missed: true })).toBeNull();
    const email = await client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'ada@example.com' }, data: { subject: 'Quote', from: 'ada@example.com', to: 'office@example.com', body: 'Hi', receivedAt: new Date().toISOString() } });
    expect(outcomeOf(email)).toBeNull();
    const missed = (await client.post('/v1/inquiries', callBody({ missed: true }))).body.inquiry;
    expect((await client.get(`/v1/inquiries/${missed.id}`)).body).toMatchObject({ id: missed.id, callOutcome: 'MISSED', data: { missed: true } });
    expect((await client.get(`/v1/inquiries/${email.body.inquiry.id}`)).body.callOutcome).toBeNull();
  });
});

describe('calls in GET /v1/reports/summary', () => {
  const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  it('counts the calls taken, missed, transferred and after hours, and the taken calls’ average length', async () => {
    const { client } = await api.organization();
    const posted = [
      await client.post('/v1/inquiries', callBody({ duration: 120 })),
      await client.post('/v1/inquiries', callBody({ duration: 60, transferred: true })),
      await client.post('/v1/inquiries', callBody({ duration: 300, missed: true })),
      // The agent's call counts in no call figure.
      await client.post('/v1/inquiries', callBody({ duration: 400, direction: 'AI_TO_LEAD' })),
    ];
    expect(posted.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    // Closed every day from now on: the next call comes after hours.
    expect((await client.patch('/v1/organization', { businessHours: {} })).status).toBe(200);
    expect(outcomeOf(await client.post('/v1/inquiries', callBody({ duration: 30 })))).toBe('ANSWERED');
    await api.eventsCaughtUp();
    const to = utcDate(Date.now());
    const { summary } = (await client.get(`/v1/reports/summary?from=${utcDate(Date.now() - 86_400_000)}&to=${to}`)).body;
    expect(summary.calls).toEqual({ taken: 3, missed: 1, transferred: 1, afterHours: 1, averageDurationSeconds: 70 });
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';

/**
 * A call logged with what a voice agent has at its end, the caller's phone and a summary: by `log_call` over MCP and by
 * POST /v1/inquiries. What it leaves out of the call record is filled in, as the document says; what it gives is kept.
 */

const api = useTestApi();

/** One tool call over /mcp as JSON-RPC: the result. */
async function logCall(client: Client, args: Record<string, unknown>) {
  const res = await client.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'log_call', arguments: args } });
  expect(res.status).toBe(200);
  const result = res.body.result as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  return result.structuredContent;
}

/** The call record of an inquiry, as GET /v1/inquiries/{id} answers it. */
const callOf = async (client: Client, inquiryId: string) => (await client.get(`/v1/inquiries/${inquiryId}`)).body.data;

describe('log_call in one line', () => {
  it('records a CALL inquiry from just a phone and a summary: an inbound call ended now by the caller, 0 seconds long', async () => {
    const { client } = await api.organization();
    const before = Date.now();
    const { inquiry } = await logCall(client, { phone: '+61412345009', summary: 'Wants a quote for a new hot water system.' });
    const after = Date.now();
    expect(inquiry).toMatchObject({ source: 'CALL', summary: 'Wants a quote for a new hot water system.' });
    const lead = (await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead;
    expect(lead.phone).toBe('+61412345009');
    const call = await callOf(client, inquiry.id);
    expect(call).toMatchObject({ summary: 'Wants a quote for a new hot water system.', keyPoints: [], transcripts: [], recordingUrl: null, direction: 'LEAD_TO_AI', duration: 0, endedBy: 'user' });
    expect(call.startedAt).toBe(call.endedAt);
    expect(Date.parse(call.endedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(call.endedAt)).toBeLessThanOrEqual(after + 1000);
  });

  it('keeps the fields given, and works out the duration from the times', async () => {
    const { client } = await api.organization();
    const given = { phone: '+61412345010', name: 'Ravi Patel', summary: 'Called back about the quote.', keyPoints: ['Accepts the quote'], direction: 'AI_TO_LEAD', startedAt: '2026-11-24T01:00:00Z', endedAt: '2026-11-24T01:02:05Z', endedBy: 'assistant' };
    const { inquiry } = await logCall(client, given);
    expect(await callOf(client, inquiry.id)).toMatchObject({ summary: given.summary, keyPoints: given.keyPoints, direction: 'AI_TO_LEAD', startedAt: given.startedAt, endedAt: given.endedAt, duration: 125, endedBy: 'assistant' });
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ firstName: 'Ravi', lastName: 'Patel' });
    // A duration given is kept, and with a start alone makes the end.
    const timed = await logCall(client, { phone: '+61412345010', summary: 'A second call.', startedAt: '2026-11-24T02:00:00Z', duration: 95 });
    expect(await callOf(client, timed.inquiry.id)).toMatchObject({ startedAt: '2026-11-24T02:00:00Z', endedAt: '2026-11-24T02:01:35.000Z', duration: 95 });
  });

  it('lists phone and summary as the only required arguments, each default named in its description', async () => {
    const { client } = await api.organization();
    const tools = (await client.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' })).body.result.tools as { name: string; inputSchema: any }[];
    const { inputSchema } = tools.find((tool) => tool.name === 'log_call')!;
    expect(inputSchema.required.sort()).toEqual(['phone', 'summary']);
    expect(inputSchema.properties.direction.description).toContain('Left out: LEAD_TO_AI');
    expect(inputSchema.properties.endedBy.description).toContain('Left out: user');
    expect(inputSchema.properties.duration.description).toContain('Left out');
    expect(inputSchema.properties.lead).toBeUndefined();
    // Without the summary, the tool names it.
    const res = await client.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'log_call', arguments: { phone: '+61412345011' } } });
    expect(JSON.parse(res.body.result.content[0].text).error).toMatchObject({ status: 400, message: 'summary is required' });
  });
});

describe('POST /v1/inquiries, a CALL with the least data', () => {
  it('takes a call record of only a summary, with the same defaults', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412345012' }, data: { summary: 'Asked about opening hours.' } });
    expect(res.status).toBe(201);
    expect(await callOf(client, res.body.inquiry.id)).toMatchObject({ summary: 'Asked about opening hours.', keyPoints: [], transcripts: [], direction: 'LEAD_TO_AI', duration: 0, endedBy: 'user' });
  });

  it('still refuses an end before the start, naming endedAt, and a record without its summary', async () => {
    const { client } = await api.organization();
    const backwards = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412345013' }, data: { summary: 'A call.', startedAt: '2026-11-24T02:00:00Z', endedAt: '2026-11-24T01:00:00Z' } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.details).toEqual([expect.objectContaining({ path: 'data.endedAt' })]);
    const empty = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412345013' }, data: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([expect.objectContaining({ path: 'data.summary' })]);
  });
});

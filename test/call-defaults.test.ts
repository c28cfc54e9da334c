import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from './support/api';

/**
 * A call logged with what a voice agent has at its end, the caller's phone and a summary, by POST /v1/inquiries. What
 * it leaves out of the call record is filled in, as the document says; what it gives is kept.
 */

const api = useTestApi();

/** The call record of an inquiry, as GET /v1/inquiries/{id} answers it. */
const callOf = async (client: Client, inquiryId: string) => (await client.get(`/v1/inquiries/${inquiryId}`)).body.data;

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

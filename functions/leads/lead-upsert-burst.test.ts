import { describe, expect, it } from 'vitest';
import { sentAsAClientRetries, useTestApi } from '../../test/support/api';

// No stream consumer: the burst is about the request's own writes, and meets DynamoDB Local without a stream's batches
// written beside it (ten lanes of them, which on two busy cores can hold a write past its timeout).
const api = useTestApi();

describe('POST /v1/leads/upsert', () => {
  it('answers every one of 15 concurrent upserts of one phone, each waiting its turn on the lead or told to retry, never failing', async () => {
    const { client } = await api.organization();
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        sentAsAClientRetries(() => client.post('/v1/leads/upsert', { match: 'phone', phone: '+61412000777', name: 'Busy Caller', suburb: `Suburb ${i}` }, { headers: { 'Idempotency-Key': `burst-${i}` } })),
      ),
    );
    expect(answers.filter((a) => a.status !== 200 && a.status !== 201).map((a) => `${a.status} ${a.body.error?.code}`)).toEqual([]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.lead.id)).size).toBe(1);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });
});

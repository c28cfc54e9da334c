import { describe, expect, it } from 'vitest';
import { useTestApi } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';

const api = useTestApi();
const lead = { name: 'Sam Lee', email: 'sam@example.com' };
const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

describe('Idempotency-Key on POST and PATCH', () => {
  it('replays the first answer verbatim to a retry, marked Idempotent-Replayed, and writes once', async () => {
    const { client } = await api.organization();
    const first = await client.post('/v1/leads', lead, withKey('create-sam-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await client.post('/v1/leads', lead, withKey('create-sam-1'));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key on a different body or path', async () => {
    const { client } = await api.organization();
    await client.post('/v1/leads', lead, withKey('k1'));
    const otherBody = await client.post('/v1/leads', { ...lead, email: 'other@example.com' }, withKey('k1'));
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherPath = await client.post('/v1/companies', { name: 'Acme' }, withKey('k1'));
    expect(otherPath.status).toBe(409);
    expect(otherPath.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
    expect((await client.get('/v1/companies')).body.totalCount).toBe(0);
  });

  it('runs one of two concurrent requests with one key; the other answers 409 IDEMPOTENCY_IN_PROGRESS or the replay', async () => {
    const { client } = await api.organization();
    const answers = await Promise.all([client.post('/v1/leads', lead, withKey('race')), client.post('/v1/leads', lead, withKey('race'))]);
    const outcomes = answers.map((res) => (res.status === 201 ? (res.headers.get('idempotent-replayed') ? 'replayed' : 'created') : res.body.error.code)).sort();
    expect(['created,replayed', 'IDEMPOTENCY_IN_PROGRESS,created']).toContain(outcomes.join(','));
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('keeps no 400: a corrected retry with the same key runs', async () => {
    const { client } = await api.organization();
    const bad = await client.post('/v1/leads', { name: 'Sam' }, withKey('fix-me'));
    expect(bad.status).toBe(400);
    const fixed = await client.post('/v1/leads', lead, withKey('fix-me'));
    expect(fixed.status).toBe(201);
  });

  it('keeps no 404 earned by an id that cannot exist, which nothing ran for: a corrected retry with the same key runs', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const leadId = (demo!.leadIds as string[])[0]!;
    const malformed = await client.post('/v1/appointments', { leadId: 'lead_1', title: 'Visit', startsAt: '2027-03-01T09:00:00Z', endsAt: '2027-03-01T10:00:00Z' }, withKey('fix-id'));
    expect(malformed.status).toBe(404);
    const fixed = await client.post('/v1/appointments', { leadId, title: 'Visit', startsAt: '2027-03-01T09:00:00Z', endsAt: '2027-03-01T10:00:00Z' }, withKey('fix-id'));
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps a 404 and a 409 like any completed answer', async () => {
    const { client } = await api.organization();
    const missing = await client.patch('/v1/leads/lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', { read: true }, withKey('patch-1'));
    expect(missing.status).toBe(404);
    const again = await client.patch('/v1/leads/lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', { read: true }, withKey('patch-1'));
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per organization', async () => {
    const a = await api.organization();
    const b = await api.organization();
    expect((await a.client.post('/v1/leads', lead, withKey('shared'))).status).toBe(201);
    const other = await b.client.post('/v1/leads', lead, withKey('shared'));
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect((await b.client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'two words'],
  ])('answers 400 naming the header for a key that is %s', async (_, key) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', lead, withKey(key));
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 printable characters without spaces' }]);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('costs nothing without a key, and one claim and one completion with one', async () => {
    const { client } = await api.organization();
    // Both after the organization's first create, which alone reserves a block of activity ids.
    expect((await client.post('/v1/leads', { ...lead, email: 'first@example.com' })).status).toBe(201);
    const without = await countDynamoCalls(() => client.post('/v1/leads', lead));
    const withIt = await countDynamoCalls(() => client.post('/v1/leads', { ...lead, email: 'b@example.com' }, withKey('count')));
    expect(withIt).toEqual(['PutItemCommand', ...without, 'PutItemCommand']);
  });
});

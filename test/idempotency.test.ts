import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../functions/meta/document';
import { useTestApi } from './support/api';
import { SmsDeliveryError } from '../functions/sms/sender';
import { setSmsSender } from '../functions/sms/sender';
import { countDynamoCalls } from './support/dynamo-calls';
import { keys } from '#shared/store/keys';
import { queryAll } from '#shared/store/query-page';

const api = useTestApi();
const document = buildDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, any> }>> };
const companiesPost = document.paths['/v1/companies']!.post!;
const leadsPost = document.paths['/v1/leads']!.post!;
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
    // A generated client reads response headers from the document only: the one marking a replay is declared there.
    expect(Object.keys(leadsPost.responses['201'].headers ?? {})).toContain('Idempotent-Replayed');
  });

  it('keeps an answer larger than one DynamoDB item holds, and replays it verbatim: a request that was applied is never answered as failed', async () => {
    const { client, organizationId } = await api.organization();
    // Random text compresses little, so the kept answer is still larger than an item after gzip and goes in parts.
    const noise = (length: number) => randomBytes(length).toString('base64').slice(0, length);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const faqs = Array.from({ length: 40 }, () => ({ question: noise(400), answer: noise(4000) }));
      const created = await client.post('/v1/products', { name: `Hot water unit ${i}`, tradeCategoryId: 1, pricingType: 'NONE', faqs });
      expect(created.status).toBe(201);
      ids.push(created.body.product.id);
    }
    const batch = { updates: ids.map((id, i) => ({ id, name: `Renamed unit ${i}` })) };
    const first = await client.patch('/v1/products/batch', batch, withKey('rename-every-unit'));
    expect(first.status).toBe(200);
    expect(first.body.summary).toMatchObject({ total: 4, succeeded: 4 });
    expect(JSON.stringify(first.body).length).toBeGreaterThan(600_000);
    const parts = await queryAll({ pk: keys.idempotency(organizationId, 'rename-every-unit').pk, skPrefix: 'IDEMPOTENCY_PART#' });
    expect(parts.length).toBeGreaterThanOrEqual(1);

    const retry = await client.patch('/v1/products/batch', batch, withKey('rename-every-unit'));
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);

    // The key on another request is refused from the key's record alone: its parts are never read.
    let reused: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      reused = await client.patch('/v1/products/batch', { updates: [{ id: ids[0], name: 'Another name' }] }, withKey('rename-every-unit'));
    });
    expect(reused!.status).toBe(409);
    expect(reused!.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(calls).toEqual(['PutItemCommand', 'GetItemCommand']);
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

  it('answers a key reused on another request exactly as the document’s example of that 409 shows', async () => {
    const { client } = await api.organization();
    const shown = (companiesPost.responses['409'].content['application/json'].examples.IdempotencyKeyReused.value) as { message: string };
    const key = /Idempotency-Key (\S+) /.exec(shown.message)![1]!;
    await client.post('/v1/companies', { name: 'Harbourside Strata' }, withKey(key));
    const reused = await client.post('/v1/companies', { name: 'Harbourside Strata Pty Ltd' }, withKey(key));
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual(shown);
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

  it('costs nothing without a key, and one claim, a note of each id it draws and one completion with one', async () => {
    const { client } = await api.organization();
    // Both after the organization's first create, which alone reserves a block of activity ids.
    expect((await client.post('/v1/leads', { ...lead, email: 'first@example.com' })).status).toBe(201);
    const without = await countDynamoCalls(() => client.post('/v1/leads', lead));
    const withIt = await countDynamoCalls(() => client.post('/v1/leads', { ...lead, email: 'b@example.com' }, withKey('count')));
    // The lead's LEAD_CREATED activity id, noted on the key's record before the lead is written with it.
    expect(withIt).toEqual(['PutItemCommand', 'UpdateItemCommand', ...without, 'PutItemCommand']);
  });
});

describe('Idempotency-Key: what is kept', () => {
  it('does not keep a 413 refused before anything ran: the retry with a smaller body and the same key runs', async () => {
    const { client } = await api.organization();
    const withKey = { headers: { 'Idempotency-Key': 'import-sam-1' } };
    const tooLarge = await client.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com', suburb: 'x'.repeat(300_000) }, withKey);
    expect(tooLarge.status).toBe(413);
    // As a 400 and an id that cannot exist are not kept ("so a corrected retry runs"), nothing ran for this one either.
    const corrected = await client.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com' }, withKey);
    expect(corrected.status).toBe(201);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('the document’s Idempotency-Key of POST /v1/sms says its 502 is kept, as the API keeps and replays it', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const body = { userId: (demo!.userIds as string[])[0], leadId: (demo!.leadIds as string[])[0], message: 'On our way' };
    const withKey = { headers: { 'Idempotency-Key': 'sms-refused-1' } };
    const restore = setSmsSender({ name: 'refusing', send: async () => Promise.reject(new SmsDeliveryError('Carrier refused')) });
    try {
      expect((await client.post('/v1/sms', body, withKey)).status).toBe(502);
    } finally {
      setSmsSender(restore);
    }
    const retry = await client.post('/v1/sms', body, withKey);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([502, 'true']);

    const document = (await api.anonymous.get('/openapi')).body;
    const header = document.paths['/v1/sms'].post.parameters.find((parameter: { name: string }) => parameter.name === 'Idempotency-Key');
    // A client built from the document must not expect a retry of the 502 to send again.
    expect(header.description).toContain('a 502, the SMS provider’s answer to a message already recorded and perhaps sent, is kept');
  });
});

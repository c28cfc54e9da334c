import { createHmac, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_CHANGES, leadKeys } from '../functions/leads/entity';
import { changeLogKey } from '#shared/store/keys';
import { encodeCursor } from '#shared/store/cursors';
import { CURSOR_KEY_REREAD_MS, CURSOR_KEY_TTL_MS, CursorKeyring, secretVersions } from '#shared/store/cursor-keys';
import { useTestApi, type Client } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';

const api = useTestApi();

/** Every item of a list, walked by nextCursor from the first page. */
async function walk(client: Client, path: string, key: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res: { status: number; body: any } = await client.get(`${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    ids.push(...res.body[key].map((item: { id: string }) => item.id));
    cursor = res.body.nextCursor;
    pages++;
  } while (cursor);
  return { ids, pages };
}

async function withLeads(count: number) {
  const org = await api.organization();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await org.client.post('/v1/leads', { name: `Lead${i} Walker`, email: `walker${i}@example.com` })).body.lead.id);
  return { ...org, ids: ids.reverse() };
}

describe('cursor pagination', () => {
  it('walks every lead exactly once, newest first, and ends with nextCursor null', async () => {
    const { client, ids } = await withLeads(30);
    const walked = await walk(client, '/v1/leads', 'leads', 7);
    expect(walked.ids).toEqual(ids);
    expect(walked.pages).toBe(5);
    // A last page that is exactly full still says nothing follows: no empty page to fetch.
    expect((await walk(client, '/v1/leads', 'leads', 10)).pages).toBe(3);
  });

  it('continues a page-numbered answer from where it ended', async () => {
    const { client, ids } = await withLeads(12);
    const page2 = (await client.get('/v1/leads?page=2&limit=4')).body;
    expect(page2.leads.map((lead: { id: string }) => lead.id)).toEqual(ids.slice(4, 8));
    const next = (await client.get(`/v1/leads?limit=4&cursor=${encodeURIComponent(page2.nextCursor)}`)).body;
    expect(next.leads.map((lead: { id: string }) => lead.id)).toEqual(ids.slice(8, 12));
    expect(next.totalCount).toBe(12);
  });

  it('walks a filtered list, and reads a page after a cursor with one Query and the counter, however deep', async () => {
    const { client, ids } = await withLeads(9);
    for (const id of ids.slice(0, 3)) await client.patch(`/v1/leads/${id}`, { status: 'CONTACTED' });
    expect((await walk(client, '/v1/leads?status=NEW', 'leads', 2)).ids).toEqual(ids.slice(3));
    const first = (await client.get('/v1/leads?limit=2')).body;
    const second = (await client.get(`/v1/leads?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).body;
    const calls = await countDynamoCalls(() => client.get(`/v1/leads?limit=2&cursor=${encodeURIComponent(second.nextCursor)}`));
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });

  it('answers 400 naming cursor for a cursor altered by one character', async () => {
    const { client } = await withLeads(3);
    const { nextCursor } = (await client.get('/v1/leads?limit=1')).body;
    const at = Math.floor(nextCursor.length / 3);
    const altered = nextCursor.slice(0, at) + (nextCursor[at] === 'A' ? 'B' : 'A') + nextCursor.slice(at + 1);
    for (const cursor of [altered, `${nextCursor}x`, 'not-a-cursor']) {
      const res = await client.get(`/v1/leads?limit=1&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_CURSOR', details: [{ path: 'cursor' }] });
    }
  });

  it("answers 400 for another list's or another organization's cursor", async () => {
    const a = await withLeads(3);
    const b = await withLeads(3);
    const { nextCursor } = (await a.client.get('/v1/leads?limit=1')).body;
    const cursor = encodeURIComponent(nextCursor);
    expect((await b.client.get(`/v1/leads?limit=1&cursor=${cursor}`)).status).toBe(400);
    expect((await a.client.get(`/v1/leads?status=NEW&limit=1&cursor=${cursor}`)).status).toBe(400);
    expect((await a.client.get(`/v1/inquiries?limit=1&cursor=${cursor}`)).status).toBe(400);
    expect((await a.client.get(`/v1/leads?limit=1&cursor=${cursor}`)).status).toBe(200);
  });

  it('walks other lists the same way: policies and a lead’s activities', async () => {
    const { client, ids } = await withLeads(3);
    for (let i = 0; i < 5; i++) await client.post('/v1/policies', { title: `Policy ${i}`, content: 'Text.' });
    const policies = await walk(client, '/v1/policies', 'policies', 2);
    expect(policies.ids).toHaveLength(5);
    expect(new Set(policies.ids).size).toBe(5);
    for (const status of ['CONTACTED', 'QUALIFIED', 'WON']) await client.patch(`/v1/leads/${ids[0]}`, { status });
    const activities = await walk(client, `/v1/leads/${ids[0]}/activities`, 'activities', 2);
    expect(activities.ids).toHaveLength(4);
  });
});

describe('a sync cursor given before changes were answered only once settled', () => {
  // Its list was bound to the change log's range up to '~'; the settled range's moving end stands for the same end.
  it('still continues the same sync, and no other', async () => {
    const { client, organizationId } = await api.organization();
    for (const n of [1, 2, 3]) expect((await client.post('/v1/leads', { name: `Sync ${n} Lead`, email: `sync${n}@cursor.example.com` })).status).toBe(201);
    const since = '2026-01-01T00:00:00.000Z';
    const all = await client.get(`/v1/leads?updatedSince=${since}&limit=10`);
    const [first, ...rest] = all.body.leads as { id: string; updatedAt: string }[];
    const partition = changeLogKey(organizationId, LEAD_CHANGES).gsi6pk;
    const position = { ...leadKeys.lead(organizationId, first!.id), gsi6pk: partition, updatedAt: first!.updatedAt };
    const before = await encodeCursor({ index: 'gsi6', pk: partition, skBetween: [since, '~'], ascending: true }, position);
    const resumed = await client.get(`/v1/leads?updatedSince=${since}&limit=10&cursor=${encodeURIComponent(before)}`);
    expect([resumed.status, resumed.body.leads.map((lead: { id: string }) => lead.id)]).toEqual([200, rest.map((lead) => lead.id)]);
    const otherSince = await client.get(`/v1/leads?updatedSince=2026-01-02T00:00:00.000Z&limit=10&cursor=${encodeURIComponent(before)}`);
    expect([otherSince.status, otherSince.body.error?.code]).toEqual([400, 'INVALID_CURSOR']);
  });
});

describe('totalCount of a sync page reached by cursor', () => {
  it('counts from the cursor on, so a poller that has caught up counts nothing it has read', async () => {
    const { client } = await api.organization();
    for (const n of [1, 2, 3]) expect((await client.post('/v1/leads', { name: `Count ${n} Lead`, email: `count${n}@cursor.example.com` })).status).toBe(201);
    const since = '2026-01-01T00:00:00.000Z';
    const counts: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 4; page++) {
      const res: { body: any } = await client.get(`/v1/leads?updatedSince=${since}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      counts.push(res.body.totalCount);
      cursor = res.body.nextCursor;
    }
    expect(counts).toEqual([3, 2, 1, 0]);
    // A new change is counted once it comes after the cursor.
    expect((await client.post('/v1/leads', { name: 'Count Four Lead', email: 'count4@cursor.example.com' })).status).toBe(201);
    const next = await client.get(`/v1/leads?updatedSince=${since}&limit=1&cursor=${encodeURIComponent(cursor!)}`);
    expect([next.body.leads.length, next.body.totalCount]).toEqual([1, 1]);
  });
});

describe('a sync page number past the end', () => {
  it('answers an empty page from the count alone: no Query walks the range', async () => {
    const { client } = await api.organization();
    for (const n of [1, 2, 3]) expect((await client.post('/v1/leads', { name: `Past ${n} Lead`, email: `past${n}@cursor.example.com` })).status).toBe(201);
    for (const page of [2, 4, 2147483647]) {
      const calls = await countDynamoCalls(async () => {
        const res = await client.get(`/v1/leads?updatedSince=2026-01-01T00:00:00.000Z&limit=2&page=${page}`);
        expect([res.status, res.body.leads.length, res.body.totalCount]).toEqual([200, page === 2 ? 1 : 0, 3]);
      });
      // Past the end, the count alone; within it, the count, the walk to the page and the page.
      expect(calls).toEqual(page === 2 ? ['QueryCommand', 'QueryCommand', 'QueryCommand'] : ['QueryCommand']);
    }
  });
});

describe('the signing key read at run time, as deployed', () => {
  // What the Parameters and Secrets extension answers in Lambda: the secret's value by version stage, for the
  // function's session token; Secrets Manager's ResourceNotFoundException for a stage no version has.
  const secretArn = 'arn:aws:secretsmanager:ap-southeast-2:123456789012:secret:cursor-key-AbCdEf';
  const versions: { AWSCURRENT: string; AWSPREVIOUS?: string } = { AWSCURRENT: 'first-cursor-signing-key' };
  let reads = 0;
  let failing = false;
  const extension = createServer((request, response) => {
    const url = new URL(request.url!, 'http://localhost');
    const stage = url.searchParams.get('versionStage') as keyof typeof versions;
    reads++;
    if (failing) return void response.writeHead(500).end('{"message":"unavailable"}');
    if (url.pathname !== '/secretsmanager/get' || url.searchParams.get('secretId') !== secretArn || request.headers['x-aws-parameters-secrets-token'] !== 'session-token') return void response.writeHead(401).end();
    const value = versions[stage];
    if (value === undefined) return void response.writeHead(400).end('{"__type":"ResourceNotFoundException"}');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ARN: secretArn, SecretString: value, VersionStages: [stage] }));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => extension.listen(0, '127.0.0.1', resolve));
    process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String((extension.address() as AddressInfo).port);
    process.env.AWS_SESSION_TOKEN = 'session-token';
  });
  afterAll(async () => {
    delete process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT;
    delete process.env.AWS_SESSION_TOKEN;
    await new Promise<void>((resolve) => extension.close(() => resolve()));
  });

  /** Whether a keyring verifies what `secret` signed, and which of the candidates it signs with. */
  const mac = (key: KeyObject | string) => createHmac('sha256', key).update('payload').digest('base64url');
  const signedBy = (secret: string) => (key: KeyObject) => mac(key) === mac(secret);
  const signingSecret = async (keyring: CursorKeyring, candidates: string[]) => {
    const key = await keyring.signingKey();
    return candidates.find((candidate) => mac(key) === mac(candidate));
  };

  it('signs with the current key, verifies the previous one after a replacement, and reads again only after its TTL or for a newer key', async () => {
    let now = 0;
    const keyring = new CursorKeyring('CURSOR_SECRET_ARN', secretVersions(secretArn), () => now);
    const [first, second, third] = ['first-cursor-signing-key', 'second-cursor-signing-key', 'third-cursor-signing-key'];
    expect(await signingSecret(keyring, [first])).toBe(first);
    expect(await keyring.verify(signedBy(first))).toBe(true);
    const readsAtStart = reads;

    // Replaced: AWSPREVIOUS is the old value. Until its keys are CURSOR_KEY_TTL_MS old the container reads nothing.
    Object.assign(versions, { AWSCURRENT: second, AWSPREVIOUS: first });
    now += CURSOR_KEY_TTL_MS - 1;
    expect(await signingSecret(keyring, [first, second])).toBe(first);
    expect(reads).toBe(readsAtStart);
    now += 1;
    expect(await signingSecret(keyring, [first, second])).toBe(second);
    expect(await keyring.verify(signedBy(first))).toBe(true);
    expect(await keyring.verify(signedBy(second))).toBe(true);

    // Replaced again, and a cursor signed by a container that already read it: this one reads again to verify it.
    Object.assign(versions, { AWSCURRENT: third, AWSPREVIOUS: second });
    const readsBefore = reads;
    expect(await keyring.verify(signedBy(third))).toBe(false);
    expect(reads).toBe(readsBefore);
    now += CURSOR_KEY_REREAD_MS;
    expect(await keyring.verify(signedBy(third))).toBe(true);
    expect(reads).toBeGreaterThan(readsBefore);
    // The key replaced twice signs nothing valid any more, and a signature no key made reads nothing within 30 s.
    const readsAfter = reads;
    expect(await keyring.verify(signedBy(first))).toBe(false);
    expect(await keyring.verify(signedBy('a-key-that-was-never-the-secret'))).toBe(false);
    expect(reads).toBe(readsAfter);
  });

  it('keeps the keys it has when a later read fails, and fails loudly with none', async () => {
    let now = 0;
    Object.assign(versions, { AWSCURRENT: 'current-cursor-signing-key', AWSPREVIOUS: undefined });
    const keyring = new CursorKeyring('CURSOR_SECRET_ARN', secretVersions(secretArn), () => now);
    expect(await signingSecret(keyring, ['current-cursor-signing-key'])).toBe('current-cursor-signing-key');
    failing = true;
    try {
      now += CURSOR_KEY_TTL_MS;
      expect(await signingSecret(keyring, ['current-cursor-signing-key'])).toBe('current-cursor-signing-key');
      await expect(new CursorKeyring('CURSOR_SECRET_ARN', secretVersions(secretArn)).signingKey()).rejects.toThrow(/answered 500/);
    } finally {
      failing = false;
    }
  });

  it('refuses a key shorter than 16 characters', async () => {
    await expect(new CursorKeyring('CURSOR_SECRET', async () => ({ current: 'too-short' })).signingKey()).rejects.toThrow(/16 characters or more/);
  });
});

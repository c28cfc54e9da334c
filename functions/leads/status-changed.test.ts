import { describe, expect, it, vi } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';

/**
 * A lead's statusChangedAt, and GET /v1/leads?status&statusChangedSince&statusChangedBefore: a status's leads by when
 * they took it (the quotes gone quiet, the leads won in a month), the latest first, counted exactly.
 */

const api = useTestApi();

/** Runs `work` with the time records are stamped at (Date.now, which the in-process server reads too) stopped at `at`. */
async function atTime<T>(at: string, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.parse(at));
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

const day = (n: number, clock = '09:00:00.000') => `2026-10-${String(n).padStart(2, '0')}T${clock}Z`;
/** An instant `ms` milliseconds from another. */
const shifted = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

interface Seeded {
  client: Client;
  /** The leads by name: Ava quoted on the 1st, Ben quoted on the 3rd, Cal quoted on the 5th, Dee quoted on the 2nd then won on the 6th, Eve created QUOTED on the 4th. */
  id: Record<'ava' | 'ben' | 'cal' | 'dee' | 'eve', string>;
}

async function seededOrganization(): Promise<Seeded> {
  const { client } = await api.organization();
  const create = (name: string, at: string, status = 'NEW') =>
    atTime(at, async () => {
      const res = await client.post('/v1/leads', { name, email: `${name.toLowerCase()}@example.com`, status });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.lead as { id: string; statusChangedAt: string; createdAt: string };
    });
  const move = (id: string, status: string, at: string) =>
    atTime(at, async () => {
      const res = await client.patch(`/v1/leads/${id}`, { status });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.lead as { statusChangedAt: string; updatedAt: string };
    });
  const [ava, ben, cal, dee] = [await create('Ava', day(1, '08:00:00.000')), await create('Ben', day(1, '08:00:00.000')), await create('Cal', day(1, '08:00:00.000')), await create('Dee', day(1, '08:00:00.000'))];
  await move(ava.id, 'QUOTED', day(1));
  await move(dee.id, 'QUOTED', day(2));
  await move(ben.id, 'QUOTED', day(3));
  const eve = await create('Eve', day(4), 'QUOTED');
  expect(eve.statusChangedAt).toBe(day(4));
  await move(cal.id, 'QUOTED', day(5));
  const won = await move(dee.id, 'WON', day(6));
  expect(won.statusChangedAt).toBe(day(6));
  return { client, id: { ava: ava.id, ben: ben.id, cal: cal.id, dee: dee.id, eve: eve.id } };
}

const idsOf = (body: { leads: Array<{ id: string }> }) => body.leads.map((lead) => lead.id);

async function listed({ client }: Seeded, query: string) {
  const res = await client.get(`/v1/leads?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { totalCount: res.body.totalCount as number, ids: idsOf(res.body) };
}

const param = (name: string, at: string) => `${name}=${encodeURIComponent(at)}`;

describe('a lead’s statusChangedAt', () => {
  it('is when it took its status: its creation, then each move, and an edit that keeps the status leaves it', async () => {
    const { client } = await api.organization();
    const lead = await atTime(day(1), async () => (await client.post('/v1/leads', { name: 'Ava', email: 'ava@example.com' })).body.lead);
    expect(lead.statusChangedAt).toBe(lead.createdAt);
    const quoted = await atTime(day(2), async () => (await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED' })).body.lead);
    expect(quoted.statusChangedAt).toBe(day(2));
    const edited = await atTime(day(3), async () => (await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED', suburb: 'Glebe' })).body.lead);
    expect([edited.statusChangedAt, edited.updatedAt]).toEqual([day(2), day(3)]);
  });
});

describe('GET /v1/leads?status&statusChangedBefore&statusChangedSince', () => {
  it('lists the quotes gone quiet: QUOTED before an instant and still QUOTED, the latest first', async () => {
    const seeded = await seededOrganization();
    const { id } = seeded;
    // Dee was quoted on the 2nd but won since: not a quiet quote.
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedBefore', day(5))}`)).toEqual({ totalCount: 3, ids: [id.eve, id.ben, id.ava] });
    expect(await listed(seeded, `status=WON&${param('statusChangedSince', day(6))}`)).toEqual({ totalCount: 1, ids: [id.dee] });
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedSince', day(3))}&${param('statusChangedBefore', day(5))}`)).toEqual({ totalCount: 2, ids: [id.eve, id.ben] });
    expect(await listed(seeded, `status=LOST&${param('statusChangedBefore', day(30))}`)).toEqual({ totalCount: 0, ids: [] });
    // Since after before: nothing.
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedSince', day(5))}&${param('statusChangedBefore', day(3))}`)).toEqual({ totalCount: 0, ids: [] });
  });

  it.each([
    ['a millisecond before Ben’s move', -1, ['ava'], ['cal', 'eve', 'ben']],
    ['Ben’s move exactly', 0, ['ava'], ['cal', 'eve', 'ben']],
    ['a millisecond after it', 1, ['ben', 'ava'], ['cal', 'eve']],
  ] as const)('at %s, before and since part the leads there', async (_, ms, before, since) => {
    const seeded = await seededOrganization();
    const at = shifted(day(3), ms);
    const ids = (names: readonly (keyof Seeded['id'])[]) => ({ totalCount: names.length, ids: names.map((name) => seeded.id[name]) });
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedBefore', at)}`)).toEqual(ids(before));
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedSince', at)}`)).toEqual(ids(since));
  });

  it('reads an instant in any offset as the same instant', async () => {
    const seeded = await seededOrganization();
    // day(3) 09:00 UTC is 20:00 in Sydney's summer time.
    expect((await listed(seeded, `status=QUOTED&${param('statusChangedBefore', '2026-10-03T20:00:00.001+11:00')}`)).ids).toEqual([seeded.id.ben, seeded.id.ava]);
  });

  it('moves a lead out as it changes status, and back in at its new time', async () => {
    const seeded = await seededOrganization();
    const { client, id } = seeded;
    await atTime(day(7), () => client.patch(`/v1/leads/${id.ava}`, { status: 'CONTACTED' }));
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedBefore', day(5))}`)).toEqual({ totalCount: 2, ids: [id.eve, id.ben] });
    await atTime(day(8), () => client.patch(`/v1/leads/${id.ava}`, { status: 'QUOTED' }));
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedSince', day(8))}`)).toEqual({ totalCount: 1, ids: [id.ava] });
    // A deleted lead leaves it.
    expect((await client.delete(`/v1/leads/${id.ben}`)).status).toBe(200);
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedBefore', day(5))}`)).toEqual({ totalCount: 1, ids: [id.eve] });
  });

  it('records one move when two requests change the status at once', async () => {
    const seeded = await seededOrganization();
    const { client, id } = seeded;
    const answers = await atTime(day(9), () => Promise.all([1, 2].map(() => client.patch(`/v1/leads/${id.ava}`, { status: 'WON' }))));
    expect(answers.map((res) => [res.status, res.body.lead.statusChangedAt])).toEqual([
      [200, day(9)],
      [200, day(9)],
    ]);
    expect(await listed(seeded, `status=WON&${param('statusChangedSince', day(1))}`)).toEqual({ totalCount: 2, ids: [id.ava, id.dee] });
    expect(await listed(seeded, `status=QUOTED&${param('statusChangedSince', day(1))}`)).toEqual({ totalCount: 3, ids: [id.cal, id.eve, id.ben] });
  });

  it('pages by cursor and by page number, and a cursor belongs to its range', async () => {
    const seeded = await seededOrganization();
    const { client, id } = seeded;
    const path = `/v1/leads?status=QUOTED&${param('statusChangedBefore', day(6))}&limit=2`;
    const first = (await client.get(path)).body;
    expect([first.totalCount, first.totalPages, idsOf(first)]).toEqual([4, 2, [id.cal, id.eve]]);
    const next = (await client.get(`${path}&cursor=${first.nextCursor}`)).body;
    expect([idsOf(next), next.nextCursor]).toEqual([[id.ben, id.ava], null]);
    expect(idsOf((await client.get(`${path}&page=2`)).body)).toEqual([id.ben, id.ava]);
    for (const other of [`status=QUOTED&${param('statusChangedBefore', day(5))}&limit=2`, 'status=QUOTED&limit=2', `status=WON&${param('statusChangedBefore', day(6))}&limit=2`]) {
      const res = await client.get(`/v1/leads?${other}&cursor=${first.nextCursor}`);
      expect([res.status, res.body.error?.code], other).toEqual([400, 'INVALID_CURSOR']);
    }
  });

  it('reads page 1 with the Query of the range and a COUNT Query of it, sent together', async () => {
    const { client } = await seededOrganization();
    expect(await countDynamoCalls(() => client.get(`/v1/leads?status=QUOTED&${param('statusChangedBefore', day(6))}&limit=2`))).toEqual(['QueryCommand', 'QueryCommand']);
  });

  it('never lists another organization’s leads', async () => {
    await seededOrganization();
    const { client: other } = await api.organization();
    expect((await other.get(`/v1/leads?status=QUOTED&${param('statusChangedBefore', day(30))}`)).body).toMatchObject({ leads: [], totalCount: 0 });
  });

  it.each([
    [`${param('statusChangedBefore', day(5))}`, 'statusChangedBefore'],
    [`${param('statusChangedSince', day(5))}`, 'statusChangedSince'],
    ['status=QUOTED&statusChangedBefore=', 'statusChangedBefore'],
    ['status=QUOTED&statusChangedBefore=2026-10-05', 'statusChangedBefore'],
    ['status=QUOTED&statusChangedBefore=2026-10-05T09:00:00', 'statusChangedBefore'],
    ['status=QUOTED&statusChangedSince=2026-02-30T09:00:00Z', 'statusChangedSince'],
    ['status=QUOTE&statusChangedSince=2026-10-05T09:00:00Z', 'status'],
    [`status=QUOTED&companyId=company_01JCZ3V7Q8K2M4N6P8R0S2T4V6&${param('statusChangedBefore', day(5))}`, 'companyId'],
    [`status=QUOTED&q=ava&${param('statusChangedBefore', day(5))}`, 'q'],
    [`status=QUOTED&email=ava%40example.com&${param('statusChangedBefore', day(5))}`, 'email'],
    [`status=QUOTED&${param('statusChangedBefore', day(5))}&${param('updatedSince', day(5))}`, 'updatedSince'],
    // A range that ends before it starts is refused with updatedSince all the same, not answered empty.
    [`status=QUOTED&${param('statusChangedSince', day(5))}&${param('statusChangedBefore', day(3))}&${param('updatedSince', day(5))}`, 'updatedSince'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/leads?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([field]);
  });
});

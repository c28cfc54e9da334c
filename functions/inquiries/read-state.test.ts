import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';

/**
 * GET /v1/inquiries?isRead and ?callOutcome: the inbox (what nobody has read yet) and the calls the receptionist
 * missed or transferred, in any combination with the other filters, each counted exactly.
 */

const api = useTestApi();

const call = (phone: string, data: Record<string, unknown>) => ({ source: 'CALL', lead: { phone }, data: { summary: 'Asked for a quote.', duration: 120, ...data } });
const email = (address: string) => ({ source: 'EMAIL', lead: { email: address }, data: { subject: 'Quote please', from: address, to: 'office@example.com', body: 'Can you quote a new tap?', receivedAt: new Date().toISOString() } });

interface Seeded {
  client: Client;
  leadA: string;
  leadB: string;
  /**
   * In creation order: 1 A's missed call, 2 B's email (read), 3 B's transferred call, 4 A's answered call, 5 B's
   * missed call (read), 6 A's email. Indexed from 1.
   */
  id: (n: number) => string;
  createdAt: (n: number) => string;
}

async function seededOrganization(): Promise<Seeded> {
  const { client } = await api.organization();
  const [phoneA, emailA, phoneB, emailB] = ['+61412555301', 'ava@example.com', '+61412555302', 'ben@example.com'];
  const leadA = (await client.post('/v1/leads', { name: 'Ava Jones', phone: phoneA, email: emailA })).body.lead.id;
  const leadB = (await client.post('/v1/leads', { name: 'Ben Smith', phone: phoneB, email: emailB })).body.lead.id;
  const bodies = [call(phoneA, { missed: true }), email(emailB), call(phoneB, { transferred: true }), call(phoneA, {}), call(phoneB, { missed: true }), email(emailA)];
  const created: Array<{ id: string; createdAt: string; callOutcome: string | null }> = [];
  for (const body of bodies) {
    const res = await client.post('/v1/inquiries', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    created.push(res.body.inquiry);
  }
  expect(created.map((inquiry) => inquiry.callOutcome)).toEqual(['MISSED', null, 'TRANSFERRED', 'ANSWERED', 'MISSED', null]);
  for (const n of [2, 5]) expect((await client.patch(`/v1/inquiries/${created[n - 1]!.id}`, { isRead: true })).status).toBe(200);
  return { client, leadA, leadB, id: (n) => created[n - 1]!.id, createdAt: (n) => created[n - 1]!.createdAt };
}

const idsOf = (body: { inquiries: Array<{ id: string }> }) => body.inquiries.map((inquiry) => inquiry.id);

/** The list's count and ids for a query, with the leads' placeholders A and B replaced. */
async function listed({ client, leadA, leadB }: Seeded, query: string) {
  const res = await client.get(`/v1/inquiries?${query.replace('leadId=A', `leadId=${leadA}`).replace('leadId=B', `leadId=${leadB}`)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { totalCount: res.body.totalCount as number, ids: idsOf(res.body) };
}

describe('GET /v1/inquiries?isRead&callOutcome', () => {
  it.each([
    ['isRead=false', [6, 4, 3, 1]],
    ['isRead=true', [5, 2]],
    ['isRead=false&source=CALL', [4, 3, 1]],
    ['isRead=true&source=EMAIL', [2]],
    ['isRead=true&source=CHATBOT', []],
    ['callOutcome=MISSED', [5, 1]],
    ['callOutcome=MISSED&source=CALL', [5, 1]],
    ['callOutcome=MISSED&isRead=false', [1]],
    ['callOutcome=MISSED&isRead=true', [5]],
    ['callOutcome=TRANSFERRED&isRead=false', [3]],
    ['callOutcome=ANSWERED', [4]],
    ['leadId=A&isRead=false', [6, 4, 1]],
    ['leadId=B&callOutcome=MISSED', [5]],
    ['leadId=A&callOutcome=MISSED&isRead=true', []],
    ['leadId=B&source=EMAIL&isRead=true', [2]],
    ['isRead=false&expand=lead', [6, 4, 3, 1]],
  ])('%s lists exactly those, newest first, and counts them', async (query, numbers) => {
    const seeded = await seededOrganization();
    expect(await listed(seeded, query)).toEqual({ totalCount: numbers.length, ids: numbers.map(seeded.id) });
  });

  it('combines with createdSince, counted over the range', async () => {
    const seeded = await seededOrganization();
    const since = `createdSince=${encodeURIComponent(seeded.createdAt(3))}`;
    expect(await listed(seeded, `${since}&isRead=false`)).toEqual({ totalCount: 3, ids: [6, 4, 3].map(seeded.id) });
    expect(await listed(seeded, `${since}&callOutcome=MISSED`)).toEqual({ totalCount: 1, ids: [seeded.id(5)] });
    expect(await listed(seeded, `${since}&callOutcome=TRANSFERRED&isRead=false&source=CALL`)).toEqual({ totalCount: 1, ids: [seeded.id(3)] });
    expect(await listed(seeded, `${since}&leadId=A&isRead=false`)).toEqual({ totalCount: 2, ids: [6, 4].map(seeded.id) });
  });

  it('moves an inquiry between the read and the unread lists, and their counts, as it is marked read and unread again', async () => {
    const seeded = await seededOrganization();
    const { client, id } = seeded;
    expect((await client.patch(`/v1/inquiries/${id(5)}`, { isRead: false })).status).toBe(200);
    expect(await listed(seeded, 'callOutcome=MISSED&isRead=false')).toEqual({ totalCount: 2, ids: [5, 1].map(id) });
    expect(await listed(seeded, 'isRead=true')).toEqual({ totalCount: 1, ids: [id(2)] });
    expect(await listed(seeded, 'isRead=true&source=CALL')).toEqual({ totalCount: 0, ids: [] });
    // A change of tag alone leaves the read state, and the lists, as they were.
    expect((await client.patch(`/v1/inquiries/${id(1)}`, { tag: 'FOLLOW_UP' })).status).toBe(200);
    expect(await listed(seeded, 'isRead=false&source=CALL')).toEqual({ totalCount: 4, ids: [5, 4, 3, 1].map(id) });
    // Read again: marking read what is read moves nothing.
    for (const isRead of [true, true]) expect((await client.patch(`/v1/inquiries/${id(1)}`, { isRead })).status).toBe(200);
    expect(await listed(seeded, 'callOutcome=MISSED&isRead=true')).toEqual({ totalCount: 1, ids: [id(1)] });
    expect(await listed(seeded, 'isRead=false')).toEqual({ totalCount: 4, ids: [6, 5, 4, 3].map(id) });
    expect(await listed(seeded, 'isRead=true')).toEqual({ totalCount: 2, ids: [2, 1].map(id) });
  });

  it('counts one move when two requests mark the same inquiry read at once', async () => {
    const seeded = await seededOrganization();
    const { client, id } = seeded;
    const answers = await Promise.all([1, 2].map(() => client.patch(`/v1/inquiries/${id(1)}`, { isRead: true })));
    expect(answers.map((res) => [res.status, res.body.inquiry.isRead])).toEqual([[200, true], [200, true]]);
    expect(await listed(seeded, 'isRead=false')).toEqual({ totalCount: 3, ids: [6, 4, 3].map(id) });
    expect(await listed(seeded, 'callOutcome=MISSED&isRead=true')).toEqual({ totalCount: 2, ids: [5, 1].map(id) });
    expect(await listed(seeded, 'callOutcome=MISSED&isRead=false')).toEqual({ totalCount: 0, ids: [] });
    expect((await client.get(`/v1/leads/${seeded.leadA}`)).body.lead.unreadCalls).toBe(1);
  });

  it('pages by cursor and by page number, and a cursor belongs to its read state and its outcome', async () => {
    const seeded = await seededOrganization();
    const { client, id } = seeded;
    const first = (await client.get('/v1/inquiries?isRead=false&limit=2')).body;
    expect([first.totalCount, first.totalPages, idsOf(first)]).toEqual([4, 2, [6, 4].map(id)]);
    const next = (await client.get(`/v1/inquiries?isRead=false&limit=2&cursor=${first.nextCursor}`)).body;
    expect([idsOf(next), next.nextCursor]).toEqual([[3, 1].map(id), null]);
    expect(idsOf((await client.get('/v1/inquiries?isRead=false&limit=2&page=2')).body)).toEqual([3, 1].map(id));

    const missed = (await client.get('/v1/inquiries?callOutcome=MISSED&limit=1')).body;
    expect([missed.totalCount, idsOf(missed)]).toEqual([2, [id(5)]]);
    const nextMissed = (await client.get(`/v1/inquiries?callOutcome=MISSED&limit=1&cursor=${missed.nextCursor}`)).body;
    expect([idsOf(nextMissed), nextMissed.nextCursor]).toEqual([[id(1)], null]);
    // Page 2 walks past page 1's match, not past page 1's calls.
    expect(idsOf((await client.get('/v1/inquiries?callOutcome=MISSED&limit=1&page=2')).body)).toEqual([id(1)]);
    expect((await client.get('/v1/inquiries?callOutcome=MISSED&limit=1&page=3')).body).toMatchObject({ inquiries: [], totalCount: 2, nextCursor: null });

    for (const other of [`isRead=true&limit=2&cursor=${first.nextCursor}`, `limit=2&cursor=${first.nextCursor}`, `callOutcome=TRANSFERRED&limit=1&cursor=${missed.nextCursor}`, `source=CALL&limit=1&cursor=${missed.nextCursor}`]) {
      const res = await client.get(`/v1/inquiries?${other}`);
      expect([res.status, res.body.error?.code], other).toEqual([400, 'INVALID_CURSOR']);
    }
  });

  it('reads page 1 with one Query and one counter read, sent together', async () => {
    const { client } = await seededOrganization();
    for (const query of ['isRead=false&limit=2', 'isRead=true&source=CALL&limit=1', 'callOutcome=MISSED&isRead=false&limit=1', 'callOutcome=TRANSFERRED&limit=5']) {
      expect((await countDynamoCalls(() => client.get(`/v1/inquiries?${query}`))).sort(), query).toEqual(['GetItemCommand', 'QueryCommand']);
    }
  });

  it('refuses a call outcome with another source, saying what to send instead', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/inquiries?callOutcome=MISSED&source=EMAIL');
    expect(res.body.error.details).toEqual([{ path: 'callOutcome', message: 'callOutcome filters calls: leave source out, or set it to CALL' }]);
  });

  it('never lists another organization’s inquiries', async () => {
    const seeded = await seededOrganization();
    const { client: other } = await api.organization();
    for (const query of ['isRead=false', 'isRead=true', 'callOutcome=MISSED', `leadId=${seeded.leadA}&isRead=false`]) {
      expect((await other.get(`/v1/inquiries?${query}`)).body, query).toMatchObject({ inquiries: [], totalCount: 0 });
    }
  });

  it.each([
    ['isRead=TRUE', 'isRead'],
    ['isRead=1', 'isRead'],
    ['isRead=', 'isRead'],
    ['isRead=truee', 'isRead'],
    ['isRead=fals', 'isRead'],
    ['callOutcome=missed', 'callOutcome'],
    ['callOutcome=MISSED_', 'callOutcome'],
    ['callOutcome=MISSE', 'callOutcome'],
    ['callOutcome=', 'callOutcome'],
    ['callOutcome=MISSED&source=EMAIL', 'callOutcome'],
    ['callOutcome=ANSWERED&source=SMS', 'callOutcome'],
    ['isRead=false&updatedSince=2025-03-03T09:00:00Z', 'updatedSince'],
    ['callOutcome=MISSED&updatedSince=2025-03-03T09:00:00Z', 'updatedSince'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/inquiries?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([field]);
  });
});

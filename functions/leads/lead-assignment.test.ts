import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { created } from '../../test/support/fixtures';

const api = useTestApi({ events: true });

type Lead = { id: string; status: string; assignedMemberId: number | null } & Record<string, unknown>;

/** Each lead its own email: a contact another lead has is refused (409 DUPLICATE_CONTACT). */
let leadsMade = 0;
const createLead = (client: Client, body: Record<string, unknown> = {}) => created<Lead>(client, '/v1/leads', 'lead', { name: 'Sam Lee', email: `assigned${leadsMade++}@example.com`, ...body });

/** A member of the client's organization (a fresh organization has none), answered with its integer id. */
let membersMade = 0;
const createMember = async (client: Client) => (await created<{ id: number }>(client, '/v1/organization/members', 'member', { email: `member${membersMade++}@example.com`, firstName: 'Ava', lastName: 'Chen' })).id;

/** The list's page for a query, holding its totalCount to what the page (of up to 100) lists. */
async function listed(client: Client, query: string): Promise<string[]> {
  const res = await client.get(`/v1/leads?limit=100&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.totalCount).toBe(res.body.leads.length);
  return res.body.leads.map((lead: Lead) => lead.id);
}

const refusal = (memberId: unknown) => [{ path: 'assignedMemberId', message: `assignedMemberId ${String(memberId)} does not match any member of the organization` }];

describe('assignedMemberId on a lead', () => {
  it('is null on a lead created without it, set on create, changed and cleared by PATCH', async () => {
    const { client } = await api.organization();
    const [ava, ben] = [await createMember(client), await createMember(client)];
    expect((await createLead(client)).assignedMemberId).toBeNull();
    const lead = await createLead(client, { assignedMemberId: ava });
    expect(lead.assignedMemberId).toBe(ava);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.assignedMemberId).toBe(ava);
    const moved = await client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: ben });
    expect([moved.status, moved.body.lead.assignedMemberId]).toEqual([200, ben]);
    const cleared = await client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: null });
    expect([cleared.status, cleared.body.lead.assignedMemberId]).toEqual([200, null]);
    // A create may send null too: a client mirroring an assignment sends what it has.
    expect((await createLead(client, { assignedMemberId: null })).assignedMemberId).toBeNull();
  });

  it('is taken by an upsert, which may unassign the lead it finds', async () => {
    const { client } = await api.organization();
    const ava = await createMember(client);
    const made = await client.post('/v1/leads/upsert', { match: 'email', email: 'upsert@example.com', name: 'Upsert Me', assignedMemberId: ava });
    expect([made.status, made.body.lead.assignedMemberId]).toEqual([201, ava]);
    const changed = await client.post('/v1/leads/upsert', { match: 'email', email: 'upsert@example.com', assignedMemberId: null });
    expect([changed.status, changed.body.lead.assignedMemberId]).toEqual([200, null]);
    expect(await listed(client, `assignedMemberId=${ava}`)).toEqual([]);
  });

  it.each([
    ['a member id as a string', '1', 'assignedMemberId must be an integer'],
    ['an empty string', '', 'assignedMemberId must be an integer'],
    ['a fraction', 1.5, 'assignedMemberId must be an integer'],
    ['zero', 0, 'assignedMemberId must be at least 1'],
    ['a negative id', -1, 'assignedMemberId must be at least 1'],
    ['an id past the largest', 2_147_483_648, 'assignedMemberId must be at most 2147483647'],
  ])('answers 400 naming assignedMemberId for %s, and writes nothing', async (_, assignedMemberId, message) => {
    const { client } = await api.organization();
    await createMember(client);
    const res = await client.post('/v1/leads', { name: 'No One', email: 'no.one@example.com', assignedMemberId });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toEqual({ path: 'assignedMemberId', message });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('refuses a member the organization does not have (unknown, a pending invitation, a prefix of a real id, another organization’s) on create and PATCH, writing nothing', async () => {
    const { client } = await api.organization();
    const other = await api.organization();
    // Invitations take ids of the members' sequence: ids 1 to 9 are invitations, and the one member is 10.
    for (let n = 0; n < 9; n++) expect((await client.post('/v1/organization/invitations', { email: `invited${n}@example.com` })).status).toBe(201);
    const member = await createMember(client);
    expect(member).toBe(10);
    // The other organization has members up to 11: its 11 is no member here.
    for (let n = 0; n < 11; n++) await createMember(other.client);
    const lead = await createLead(client, { status: 'QUOTED' });
    for (const memberId of [999, 1, 11]) {
      const create = await client.post('/v1/leads', { name: 'Nobody Here', email: 'nobody@example.com', assignedMemberId: memberId });
      expect([create.status, create.body.error.details]).toEqual([400, refusal(memberId)]);
      const patch = await client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: memberId, status: 'WON' });
      expect([patch.status, patch.body.error.details]).toEqual([400, refusal(memberId)]);
    }
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
    expect(await listed(client, '')).toEqual([lead.id]);
    expect(await listed(client, 'status=WON')).toEqual([]);
    for (const memberId of [999, 1, 11]) expect(await listed(client, `assignedMemberId=${memberId}`)).toEqual([]);
    expect((await client.get(`/v1/leads/${lead.id}/activities`)).body.totalCount).toBe(1);
  });

  it('appears in lead.updated with its previous value, as every field does', async () => {
    const { client } = await api.organization();
    const ava = await createMember(client);
    const lead = await createLead(client);
    const assigned = (await client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: ava })).body.lead;
    await api.eventsCaughtUp();
    const [updated] = (await client.get('/v1/events?type=lead.updated')).body.events;
    expect(updated.data).toEqual(assigned);
    expect(updated.previousAttributes).toEqual({ assignedMemberId: null });
  });
});

describe('GET /v1/leads?assignedMemberId=', () => {
  it('lists a member’s leads newest first with an exact totalCount, paged by page and by cursor', async () => {
    const { client } = await api.organization();
    const [ava, ben] = [await createMember(client), await createMember(client)];
    const avas: string[] = [];
    for (let n = 0; n < 5; n++) avas.unshift((await createLead(client, { assignedMemberId: ava })).id);
    const bens = [(await createLead(client, { assignedMemberId: ben })).id];
    await createLead(client);
    expect(await listed(client, `assignedMemberId=${ava}`)).toEqual(avas);
    expect(await listed(client, `assignedMemberId=${ben}`)).toEqual(bens);
    const first = (await client.get(`/v1/leads?assignedMemberId=${ava}&limit=2`)).body;
    expect([first.totalCount, first.totalPages, first.leads.map((lead: Lead) => lead.id)]).toEqual([5, 3, avas.slice(0, 2)]);
    const second = (await client.get(`/v1/leads?assignedMemberId=${ava}&limit=2&cursor=${first.nextCursor}`)).body;
    expect(second.leads.map((lead: Lead) => lead.id)).toEqual(avas.slice(2, 4));
    const third = (await client.get(`/v1/leads?assignedMemberId=${ava}&limit=2&page=3`)).body;
    expect([third.leads.map((lead: Lead) => lead.id), third.nextCursor]).toEqual([avas.slice(4), null]);
    // A cursor is bound to its list: the other member's answers 400.
    expect((await client.get(`/v1/leads?assignedMemberId=${ben}&limit=2&cursor=${first.nextCursor}`)).status).toBe(400);
  });

  it('reads page 1 with one index Query and one counter read', async () => {
    const { client } = await api.organization();
    const ava = await createMember(client);
    await createLead(client, { assignedMemberId: ava });
    expect((await countDynamoCalls(() => client.get(`/v1/leads?assignedMemberId=${ava}`))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });

  it('combines with status, companyId and a search, each counted exactly; not with a range of statusChangedAt', async () => {
    const { client } = await api.organization();
    const [ava, ben] = [await createMember(client), await createMember(client)];
    const company = await created<{ id: string }>(client, '/v1/companies', 'company', { name: 'Harbour Strata' });
    const a = await createLead(client, { assignedMemberId: ava, status: 'QUOTED', companyId: company.id, name: 'Olivia Nguyen' });
    const b = await createLead(client, { assignedMemberId: ava, name: 'Oscar Wilde' });
    const c = await createLead(client, { assignedMemberId: ben, status: 'QUOTED', companyId: company.id, name: 'Olive Tree' });
    expect(await listed(client, `assignedMemberId=${ava}&status=QUOTED`)).toEqual([a.id]);
    expect(await listed(client, `assignedMemberId=${ava}&status=NEW`)).toEqual([b.id]);
    expect(await listed(client, `assignedMemberId=${ben}&status=NEW`)).toEqual([]);
    expect(await listed(client, `assignedMemberId=${ava}&companyId=${company.id}`)).toEqual([a.id]);
    expect(await listed(client, `assignedMemberId=${ben}&companyId=${company.id}&status=QUOTED`)).toEqual([c.id]);
    expect(await listed(client, `companyId=${company.id}&status=QUOTED`)).toEqual([c.id, a.id]);
    expect(await listed(client, `q=ol&assignedMemberId=${ava}`)).toEqual([a.id]);
    expect(await listed(client, `q=o&assignedMemberId=${ava}`)).toEqual([b.id, a.id]);
    expect(await listed(client, `email=${encodeURIComponent(String(c.email))}&assignedMemberId=${ava}`)).toEqual([]);
    // Each combination is read from one partition, whole: one Query.
    expect(await countDynamoCalls(() => client.get(`/v1/leads?assignedMemberId=${ava}&status=QUOTED`))).toEqual(['QueryCommand']);
    const ranged = await client.get(`/v1/leads?status=QUOTED&statusChangedBefore=2030-01-01T00:00:00Z&assignedMemberId=${ava}`);
    expect([ranged.status, ranged.body.error.details]).toEqual([400, [{ path: 'assignedMemberId', message: 'assignedMemberId cannot be combined with statusChangedBefore' }]]);
  });

  it('moves a search’s name items with the assignment, so a filtered search follows it', async () => {
    const { client } = await api.organization();
    const [ava, ben] = [await createMember(client), await createMember(client)];
    const lead = await createLead(client, { name: 'Zara Quinn', assignedMemberId: ava });
    await client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: ben });
    expect(await listed(client, `q=zara&assignedMemberId=${ava}`)).toEqual([]);
    expect(await listed(client, `q=zara&assignedMemberId=${ben}`)).toEqual([lead.id]);
  });

  it.each([
    ['an empty value', ''],
    ['a leading zero', '01'],
    ['a signed value', '+1'],
    ['zero', '0'],
    ['a word', 'me'],
    ['a fraction', '1.5'],
  ])('answers 400 naming assignedMemberId for %s', async (_, value) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/leads?assignedMemberId=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('assignedMemberId');
  });

  it('lists nothing for a member with no leads, and never another organization’s lead under the same member id', async () => {
    const mine = await api.organization();
    const theirs = await api.organization();
    const [myAva, theirAva] = [await createMember(mine.client), await createMember(theirs.client)];
    // Member ids are numbered per organization: both are 1, and each lists only its own organization's lead.
    expect(myAva).toBe(theirAva);
    const own = await createLead(mine.client, { assignedMemberId: myAva });
    const other = await createLead(theirs.client, { assignedMemberId: theirAva });
    expect(await listed(mine.client, `assignedMemberId=${myAva}`)).toEqual([own.id]);
    expect(await listed(theirs.client, `assignedMemberId=${theirAva}`)).toEqual([other.id]);
    expect(await listed(mine.client, 'assignedMemberId=2')).toEqual([]);
  });
});

describe('the counts under concurrent writes', () => {
  it('stay exact when two PATCHes assign one lead to different members at once', async () => {
    const { client } = await api.organization();
    const [ava, ben] = [await createMember(client), await createMember(client)];
    const leads = await Promise.all([0, 1, 2, 3].map(() => createLead(client)));
    const answers = await Promise.all(
      leads.flatMap((lead) => [client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: ava }), client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: ben, status: 'CONTACTED' })]),
    );
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
    const assigned = await Promise.all(leads.map(async (lead) => (await client.get(`/v1/leads/${lead.id}`)).body.lead.assignedMemberId));
    const ofAva = leads.filter((_, n) => assigned[n] === ava).map((lead) => lead.id);
    const ofBen = leads.filter((_, n) => assigned[n] === ben).map((lead) => lead.id);
    expect(ofAva.length + ofBen.length).toBe(leads.length);
    expect((await listed(client, `assignedMemberId=${ava}`)).sort()).toEqual(ofAva.sort());
    expect((await listed(client, `assignedMemberId=${ben}`)).sort()).toEqual(ofBen.sort());
    expect(await listed(client, 'status=CONTACTED')).toHaveLength(leads.length);
  });

  it('stay exact when an assignment and an unassignment of one lead race', async () => {
    const { client } = await api.organization();
    const [ava, ben] = [await createMember(client), await createMember(client)];
    const lead = await createLead(client, { assignedMemberId: ava });
    const answers = await Promise.all([client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: null }), client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: ben })]);
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    const now = (await client.get(`/v1/leads/${lead.id}`)).body.lead.assignedMemberId;
    expect(await listed(client, `assignedMemberId=${ava}`)).toEqual([]);
    expect(await listed(client, `assignedMemberId=${ben}`)).toEqual(now === ben ? [lead.id] : []);
  });

  it('stay exact when an assigned lead is deleted', async () => {
    const { client } = await api.organization();
    const ava = await createMember(client);
    const lead = await createLead(client, { assignedMemberId: ava });
    expect((await client.delete(`/v1/leads/${lead.id}`)).status).toBe(200);
    expect((await client.get(`/v1/leads?assignedMemberId=${ava}`)).body).toEqual({ leads: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });
});

describe('a lead assigned to a member who is removed', () => {
  it('keeps naming the member and listing under its id, takes other changes, and is refused only a new assignment to them', async () => {
    const { client } = await api.organization();
    const [ava, ben] = [await createMember(client), await createMember(client)];
    const lead = await createLead(client, { assignedMemberId: ava });
    expect((await client.delete(`/v1/organization/members/${ava}`)).status).toBe(200);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.assignedMemberId).toBe(ava);
    expect(await listed(client, `assignedMemberId=${ava}`)).toEqual([lead.id]);
    const kept = await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED', assignedMemberId: ava });
    expect([kept.status, kept.body.lead.assignedMemberId]).toEqual([200, ava]);
    const another = await createLead(client);
    const refused = await client.patch(`/v1/leads/${another.id}`, { assignedMemberId: ava });
    expect([refused.status, refused.body.error.details]).toEqual([400, refusal(ava)]);
    expect((await client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: ben })).status).toBe(200);
    expect(await listed(client, `assignedMemberId=${ava}`)).toEqual([]);
    expect(await listed(client, `assignedMemberId=${ben}`)).toEqual([lead.id]);
  });

  it('is never newly assigned to a member removed at the same moment: the assignment lands before the removal or is refused', async () => {
    const { client } = await api.organization();
    for (let round = 0; round < 3; round++) {
      const member = await createMember(client);
      const lead = await createLead(client);
      const [assigned, removed] = await Promise.all([client.patch(`/v1/leads/${lead.id}`, { assignedMemberId: member }), client.delete(`/v1/organization/members/${member}`)]);
      expect(removed.status).toBe(200);
      expect([200, 400]).toContain(assigned.status);
      const now = (await client.get(`/v1/leads/${lead.id}`)).body.lead.assignedMemberId;
      expect(now).toBe(assigned.status === 200 ? member : null);
      expect(await listed(client, `assignedMemberId=${member}`)).toEqual(now === null ? [] : [lead.id]);
    }
  });

  it('may be a disabled member: still a member of the organization', async () => {
    const { client } = await api.organization();
    const ava = await createMember(client);
    expect((await client.patch(`/v1/organization/members/${ava}`, { isDisabled: true })).status).toBe(200);
    expect((await createLead(client, { assignedMemberId: ava })).assignedMemberId).toBe(ava);
  });
});

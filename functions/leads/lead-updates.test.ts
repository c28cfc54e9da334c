import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { created, ISO_MS } from '../../test/support/fixtures';

const api = useTestApi();
const UNKNOWN_LEAD = 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ';

/** Each lead its own email and phone: a contact another lead has is refused (409 DUPLICATE_CONTACT). */
let leadsMade = 0;
const createLead = (client: Client, body: Record<string, unknown> = {}) => {
  const n = leadsMade++;
  return created<{ id: string; status: string; companyId: string | null } & Record<string, unknown>>(client, '/v1/leads', 'lead', { name: 'Sam Lee', email: `sam${n}@example.com`, phone: `+614120${String(n).padStart(5, '0')}`, ...body });
};
const createCompany = (client: Client, name = 'Harbourside Strata') => created<{ id: string }>(client, '/v1/companies', 'company', { name });

describe('GET /v1/leads/{leadId}', () => {
  it('answers the lead as created, with one GetItem', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    let body: unknown;
    const calls = await countDynamoCalls(async () => {
      body = (await client.get(`/v1/leads/${lead.id}`)).body;
    });
    expect(body).toEqual({ lead });
    expect(calls).toEqual(['GetItemCommand']);
  });

  it("answers 404 for an unknown lead and for another organization's", async () => {
    const mine = await api.organization();
    const lead = await createLead(mine.client);
    const { client } = await api.organization();
    for (const id of [UNKNOWN_LEAD, lead.id]) {
      const res = await client.get(`/v1/leads/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Lead not found');
    }
  });
});

describe('PATCH /v1/leads/{leadId}', () => {
  it('changes only the fields sent, and null clears an optional one', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client, { suburb: 'Glebe' });
    const res = await client.patch(`/v1/leads/${lead.id}`, { businessName: ' Lee Plumbing ', suburb: null, read: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lead: { ...lead, businessName: 'Lee Plumbing', suburb: null, read: true, updatedAt: expect.stringMatching(ISO_MS) } });
    expect(res.body.lead.updatedAt > String(lead.updatedAt)).toBe(true);
    expect((await client.get(`/v1/leads/${lead.id}`)).body).toEqual(res.body);
  });

  it('keeps a lead reachable: a phone-only lead cannot clear its phone (400 naming phone) until it has an email', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client, { email: undefined });
    expect(lead.email).toBeNull();
    const res = await client.patch(`/v1/leads/${lead.id}`, { phone: null });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('phone');
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
    const both = await client.patch(`/v1/leads/${lead.id}`, { email: 'sam@example.com', phone: null });
    expect(both.status).toBe(200);
    expect(both.body.lead).toMatchObject({ email: 'sam@example.com', phone: null });
  });

  it('records a status change as a STATUS_CHANGED activity, in the same transaction', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    let status = 0;
    const calls = await countDynamoCalls(async () => {
      status = (await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' })).status;
    });
    expect(status).toBe(200);
    // The activity's id comes from the block the lead's create reserved in this container.
    expect(calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    const activities = (await client.get(`/v1/leads/${lead.id}/activities`)).body;
    expect(activities.totalCount).toBe(2);
    expect(activities.activities[0]).toMatchObject({ event: 'STATUS_CHANGED', data: 'Status changed from NEW to CONTACTED', leadId: lead.id, userId: null });
  });

  it('writes no activity when the status sent is the one the lead has, and costs one read and one update', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const calls = await countDynamoCalls(() => client.patch(`/v1/leads/${lead.id}`, { status: 'NEW', read: true }));
    expect(calls).toEqual(['GetItemCommand', 'UpdateItemCommand']);
    expect((await client.get(`/v1/leads/${lead.id}/activities`)).body.totalCount).toBe(1);
  });

  it('links and unlinks a company of the organization', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const lead = await createLead(client);
    expect((await client.patch(`/v1/leads/${lead.id}`, { companyId: company.id })).body.lead.companyId).toBe(company.id);
    expect((await client.get(`/v1/leads?companyId=${company.id}`)).body).toMatchObject({ totalCount: 1, leads: [{ id: lead.id }] });
    expect((await client.patch(`/v1/leads/${lead.id}`, { companyId: null })).body.lead.companyId).toBeNull();
    expect((await client.get(`/v1/leads?companyId=${company.id}`)).body).toEqual({ leads: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it("answers 400 naming companyId for a company that is not the organization's, and changes nothing", async () => {
    const { client } = await api.organization();
    const other = await api.organization();
    const theirs = await createCompany(other.client);
    const lead = await createLead(client);
    for (const companyId of ['company_01HZZZZZZZZZZZZZZZZZZZZZZZ', theirs.id]) {
      const res = await client.patch(`/v1/leads/${lead.id}`, { companyId, status: 'QUOTED' });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'companyId', message: `companyId ${companyId} does not match any company of the organization` }]);
    }
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
    expect((await client.get(`/v1/leads/${lead.id}/activities`)).body.totalCount).toBe(1);
    expect((await client.get('/v1/leads?status=QUOTED')).body.totalCount).toBe(0);
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown status', { status: 'ARCHIVED' }, 'status'],
    ['an invalid email', { email: 'nobody' }, 'email'],
    ['null for the email', { email: null }, 'email'],
    ['a phone that is no valid number', { phone: '0412 000' }, 'phone'],
    ['read that is not a boolean', { read: 'yes' }, 'read'],
    ['an unknown field', { score: 10 }, 'score'],
    ['a read-only field', { unreadCalls: 0 }, 'unreadCalls'],
  ])('answers 400 for %s, naming the field, and changes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const res = await client.patch(`/v1/leads/${lead.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
  });

  it("answers 404 for an unknown lead and for another organization's, and leaves it", async () => {
    const mine = await api.organization();
    const lead = await createLead(mine.client);
    const { client } = await api.organization();
    for (const id of [UNKNOWN_LEAD, lead.id]) expect((await client.patch(`/v1/leads/${id}`, { status: 'WON' })).status).toBe(404);
    expect((await mine.client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('NEW');
  });

  it('keeps both of two concurrent changes, and records each status change once', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const [a, b] = await Promise.all([
      client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' }),
      client.patch(`/v1/leads/${lead.id}`, { businessName: 'Lee Plumbing' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const stored = (await client.get(`/v1/leads/${lead.id}`)).body.lead;
    expect(stored).toMatchObject({ status: 'CONTACTED', businessName: 'Lee Plumbing' });
    expect((await client.get('/v1/leads?status=CONTACTED')).body.totalCount).toBe(1);
    expect((await client.get('/v1/leads?status=NEW')).body.totalCount).toBe(0);
  });
});

describe('GET /v1/leads filtered by status and company', () => {
  it('answers only the matching leads, newest first, with an exact totalCount for each filter', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const a = await createLead(client, { email: 'a@example.com', companyId: company.id });
    const b = await createLead(client, { email: 'b@example.com' });
    const c = await createLead(client, { email: 'c@example.com', companyId: company.id });
    await client.patch(`/v1/leads/${a.id}`, { status: 'QUOTED' });
    await client.patch(`/v1/leads/${b.id}`, { status: 'QUOTED' });
    const ids = async (query: string) => {
      const body = (await client.get(`/v1/leads?${query}`)).body;
      expect(body.totalCount).toBe(body.leads.length);
      return body.leads.map((lead: { id: string }) => lead.id);
    };
    expect(await ids('status=QUOTED')).toEqual([b.id, a.id]);
    expect(await ids('status=NEW')).toEqual([c.id]);
    expect(await ids(`companyId=${company.id}`)).toEqual([c.id, a.id]);
    expect(await ids(`companyId=${company.id}&status=QUOTED`)).toEqual([a.id]);
    expect(await ids(`companyId=${company.id}&status=WON`)).toEqual([]);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
  });

  it('keeps every filtered count right when a lead is deleted', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const lead = await createLead(client, { companyId: company.id });
    await client.patch(`/v1/leads/${lead.id}`, { status: 'WON' });
    expect((await client.delete(`/v1/leads/${lead.id}`)).status).toBe(200);
    for (const query of ['', 'status=WON', `companyId=${company.id}`, `companyId=${company.id}&status=WON`]) {
      expect((await client.get(`/v1/leads?${query}`)).body).toEqual({ leads: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
    }
  });

  it('reads a filtered page 1 with one index Query and one counter read', async () => {
    const { client } = await api.organization();
    await createLead(client);
    expect((await countDynamoCalls(() => client.get('/v1/leads?status=NEW'))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });

  it('answers 400 for an unknown status', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/leads?status=ARCHIVED');
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('status');
  });

  it("answers 400 for a companyId on create that is not the organization's, and writes nothing", async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: 'X', email: 'x@example.com', companyId: 'company_01HZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('companyId');
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

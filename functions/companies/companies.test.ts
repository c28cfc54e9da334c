import { describe, expect, it } from 'vitest';
import { useTestApi, type ApiResponse, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { created } from '../../test/support/fixtures';

const api = useTestApi();
const COMPANY_ID = /^company_[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_COMPANY = 'company_01HZZZZZZZZZZZZZZZZZZZZZZZ';

const harbourside = {
  name: 'Harbourside Strata Management',
  website: 'https://harboursidestrata.com.au',
  email: 'maintenance@harboursidestrata.com.au',
  phone: '+61299551200',
  address: '1/92 Military Rd, Neutral Bay NSW 2089',
};

const createCompany = (client: Client, body: Record<string, unknown> = harbourside) =>
  created<{ id: string; name: string; createdAt: string; updatedAt: string }>(client, '/v1/companies', 'company', body);

describe('POST /v1/companies', () => {
  it('answers 201 with every company field, trimmed', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/companies', { ...harbourside, name: '  Harbourside Strata Management ' });
    expect(res.status).toBe(201);
    expect(res.body.company).toEqual({ id: expect.stringMatching(COMPANY_ID), ...harbourside, createdAt: expect.any(String), updatedAt: res.body.company.createdAt });
  });

  it('needs only a name; the other fields are null', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client, { name: 'Coastline Constructions' });
    expect(company).toMatchObject({ name: 'Coastline Constructions', website: null, email: null, phone: null, address: null });
  });

  it('is one transaction: the company and its counters', async () => {
    const { client } = await api.organization();
    expect(await countDynamoCalls(() => client.post('/v1/companies', harbourside))).toEqual(['TransactWriteItemsCommand']);
  });

  it.each([
    ['a missing name', { website: harbourside.website }, 'name'],
    ['a blank name', { name: '  ' }, 'name'],
    ['a website that is not a URL', { name: 'X', website: 'harbourside' }, 'website'],
    ['a website that is not http(s)', { name: 'X', website: 'ftp://harbourside.com.au' }, 'website'],
    ['an invalid email', { name: 'X', email: 'nobody' }, 'email'],
    ['a phone that is no valid number', { name: 'X', phone: '02 9955 12' }, 'phone'],
    ['an unknown field', { name: 'X', suburb: 'Neutral Bay' }, 'suburb'],
  ])('answers 400 for %s, naming the field, and writes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    let res: ApiResponse | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.post('/v1/companies', body);
    });
    expect(res!.status).toBe(400);
    expect(res!.body.error.details[0].path).toBe(field);
    // Only a national form needs a read: the organization's country, which says it is no number there.
    expect(calls).toEqual(field === 'phone' ? ['GetItemCommand'] : []);
    expect((await client.get('/v1/companies')).body.totalCount).toBe(0);
  });
});

describe('GET /v1/companies', () => {
  it('lists companies newest first with an exact totalCount, and pages', async () => {
    const { client } = await api.organization();
    const created = [];
    for (const name of ['First Pty Ltd', 'Second Pty Ltd', 'Third Pty Ltd']) created.push(await createCompany(client, { name }));
    const all = await client.get('/v1/companies');
    expect(all.body).toEqual({ companies: [...created].reverse(), totalPages: 1, currentPage: 1, totalCount: 3, nextCursor: null });
    const page2 = await client.get('/v1/companies?page=2&limit=2');
    expect(page2.body).toEqual({ companies: [created[0]], totalPages: 2, currentPage: 2, totalCount: 3, nextCursor: null });
    expect((await client.get('/v1/companies?page=3&limit=2')).body).toEqual({ companies: [], totalPages: 2, currentPage: 3, totalCount: 3, nextCursor: null });
  });

  it('lists the demo companies, and none of another organization', async () => {
    const demo = await api.demoOrganization();
    const res = await demo.client.get('/v1/companies');
    expect(res.body.companies.map((company: { id: string }) => company.id)).toEqual(demo.demo!.companyIds);
    expect(res.body.totalCount).toBe((demo.demo!.companyIds as string[]).length);
    const { client } = await api.organization();
    expect((await client.get('/v1/companies')).body).toEqual({ companies: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it('reads page 1 with one Query and one counter read', async () => {
    const { client } = await api.demoOrganization();
    expect((await countDynamoCalls(() => client.get('/v1/companies'))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });
});

describe('GET /v1/companies/{companyId}', () => {
  it('answers the company as it was created, with one GetItem', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    let body: unknown;
    const calls = await countDynamoCalls(async () => {
      body = (await client.get(`/v1/companies/${company.id}`)).body;
    });
    expect(body).toEqual({ company });
    expect(calls).toEqual(['GetItemCommand']);
  });

  it("answers 404 for an unknown company and for another organization's", async () => {
    const mine = await api.organization();
    const company = await createCompany(mine.client);
    const { client } = await api.organization();
    for (const id of [UNKNOWN_COMPANY, company.id]) {
      const res = await client.get(`/v1/companies/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ status: 404, message: 'Company not found', code: 'NOT_FOUND' });
    }
  });
});

describe('PUT /v1/companies/{companyId}', () => {
  it('changes only the fields sent, clears a field sent as null, and moves updatedAt', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const res = await client.put(`/v1/companies/${company.id}`, { phone: '+61299551299', website: null });
    expect(res.status).toBe(200);
    expect(res.body.company).toEqual({ ...company, ...harbourside, phone: '+61299551299', website: null, updatedAt: expect.any(String) });
    expect(res.body.company.updatedAt > company.updatedAt).toBe(true);
    expect((await client.get(`/v1/companies/${company.id}`)).body).toEqual(res.body);
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['a blank name', { name: '' }, 'name'],
    ['null for the required name', { name: null }, 'name'],
    ['an unknown field', { suburb: 'Manly' }, 'suburb'],
  ])('answers 400 for %s and changes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const res = await client.put(`/v1/companies/${company.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get(`/v1/companies/${company.id}`)).body.company).toEqual(company);
  });

  it("answers 404 for another organization's company and leaves it as it was", async () => {
    const mine = await api.organization();
    const company = await createCompany(mine.client);
    const { client } = await api.organization();
    expect((await client.put(`/v1/companies/${company.id}`, { name: 'Taken over' })).status).toBe(404);
    expect((await mine.client.get(`/v1/companies/${company.id}`)).body.company).toEqual(company);
  });
});

describe('company notes', () => {
  it('adds a note by a member, lists it first, changes and deletes it, keeping totalCount right', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const companyId = (demo!.companyIds as string[])[0]!;
    const userId = (demo!.userIds as string[])[0]!;
    const before = (await client.get(`/v1/companies/${companyId}/notes`)).body.totalCount as number;

    const created = await client.post(`/v1/companies/${companyId}/notes`, { value: ' Gate code is 4412. ', userId });
    expect(created.status).toBe(201);
    const note = created.body.note;
    expect(note).toEqual({ id: expect.any(Number), value: 'Gate code is 4412.', companyId, userId, createdAt: expect.any(String), updatedAt: note.createdAt });
    const listed = await client.get(`/v1/companies/${companyId}/notes`);
    expect(listed.body.notes[0]).toEqual(note);
    expect(listed.body.totalCount).toBe(before + 1);

    const changed = await client.put(`/v1/companies/${companyId}/notes/${note.id}`, { value: 'Gate code is 5523.' });
    expect(changed.status).toBe(200);
    expect(changed.body.note).toEqual({ ...note, value: 'Gate code is 5523.', updatedAt: expect.any(String) });
    expect(changed.body.note.updatedAt > note.updatedAt).toBe(true);

    const deleted = await client.delete(`/v1/companies/${companyId}/notes/${note.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, id: note.id });
    const after = await client.get(`/v1/companies/${companyId}/notes`);
    expect(after.body.totalCount).toBe(before);
    expect(after.body.notes.map((n: { id: number }) => n.id)).not.toContain(note.id);
    expect((await client.delete(`/v1/companies/${companyId}/notes/${note.id}`)).status).toBe(404);
    expect((await client.put(`/v1/companies/${companyId}/notes/${note.id}`, { value: 'again' })).status).toBe(404);
  });

  it('writes a note without a user as userId null', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const res = await client.post(`/v1/companies/${company.id}/notes`, { value: 'Sent from the CRM sync' });
    expect(res.status).toBe(201);
    expect(res.body.note.userId).toBeNull();
  });

  it("answers 400 naming userId for a user that is not a member's, and writes nothing", async () => {
    const { client } = await api.organization();
    const other = await api.organization({ demo: true });
    const company = await createCompany(client);
    for (const userId of ['user_01HZZZZZZZZZZZZZZZZZZZZZZZ', (other.demo!.userIds as string[])[0]]) {
      const res = await client.post(`/v1/companies/${company.id}/notes`, { value: 'Hello', userId });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'userId', message: `userId ${userId} does not match any member of the organization` }]);
    }
    expect((await client.get(`/v1/companies/${company.id}/notes`)).body.totalCount).toBe(0);
  });

  it("answers 404 for a note on an unknown company or another organization's", async () => {
    const mine = await api.organization();
    const company = await createCompany(mine.client);
    const { client } = await api.organization();
    for (const id of [UNKNOWN_COMPANY, company.id]) {
      const res = await client.post(`/v1/companies/${id}/notes`, { value: 'Hello' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Company not found');
    }
    expect((await mine.client.get(`/v1/companies/${company.id}/notes`)).body.totalCount).toBe(0);
  });

  it("answers 404 when changing or deleting another organization's note, and leaves it", async () => {
    const mine = await api.organization();
    const company = await createCompany(mine.client);
    const note = (await mine.client.post(`/v1/companies/${company.id}/notes`, { value: 'Mine' })).body.note;
    const { client } = await api.organization();
    expect((await client.put(`/v1/companies/${company.id}/notes/${note.id}`, { value: 'Theirs' })).status).toBe(404);
    expect((await client.delete(`/v1/companies/${company.id}/notes/${note.id}`)).status).toBe(404);
    expect((await mine.client.get(`/v1/companies/${company.id}/notes`)).body.notes).toEqual([note]);
  });

  it.each([
    ['a missing value', {}, 'value'],
    ['a blank value', { value: ' ' }, 'value'],
    ['an unknown field', { value: 'x', pinned: true }, 'pinned'],
  ])('answers 400 for %s', async (_, body, field) => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const res = await client.post(`/v1/companies/${company.id}/notes`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it('answers a note id that is not an integer as an unknown note: 404', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const res = await client.delete(`/v1/companies/${company.id}/notes/abc`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Company note not found');
  });
});

describe('DELETE /v1/companies/{companyId}', () => {
  it('removes the company and its notes, lowering the count', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const kept = await createCompany(client, { name: 'Coastline Constructions' });
    const note = (await client.post(`/v1/companies/${company.id}/notes`, { value: 'Gate code is 4412.' })).body.note;
    let res: ApiResponse | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.delete(`/v1/companies/${company.id}`);
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ success: true, id: company.id });
    // One transaction (company, its notes counter, its lead counter if 0, the companies count), then its notes.
    expect(calls).toEqual(['TransactWriteItemsCommand', 'QueryCommand', 'BatchWriteItemCommand']);
    expect((await client.get(`/v1/companies/${company.id}`)).status).toBe(404);
    expect((await client.get('/v1/companies')).body).toMatchObject({ totalCount: 1, companies: [kept] });
    expect((await client.get(`/v1/companies/${company.id}/notes`)).status).toBe(404);
    expect((await client.get(`/v1/companies/${company.id}/notes/${note.id}`)).status).toBe(404);
    expect((await client.post(`/v1/companies/${company.id}/notes`, { value: 'Too late' })).status).toBe(404);
    expect((await client.put(`/v1/companies/${company.id}`, { name: 'Back' })).status).toBe(404);
    expect((await client.delete(`/v1/companies/${company.id}`)).status).toBe(404);
    // A lead can no longer name it.
    const lead = await client.post('/v1/leads', { name: 'Tom Baker', email: 'tom@example.com', companyId: company.id });
    expect(lead.status).toBe(400);
    expect(lead.body.error.details[0].path).toBe('companyId');
  });

  it('answers 409 COMPANY_HAS_LEADS while a lead points at it, and deletes once the lead has moved', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const lead = (await client.post('/v1/leads', { name: 'Tom Baker', email: 'tom@example.com', companyId: company.id })).body.lead;
    const refused = await client.delete(`/v1/companies/${company.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ status: 409, code: 'COMPANY_HAS_LEADS' });
    expect((await client.get(`/v1/companies/${company.id}`)).body).toEqual({ company });
    expect((await client.get('/v1/companies')).body.totalCount).toBe(1);

    expect((await client.patch(`/v1/leads/${lead.id}`, { companyId: null })).status).toBe(200);
    expect((await client.delete(`/v1/companies/${company.id}`)).status).toBe(200);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.companyId).toBeNull();
  });

  it('deletes once the leads pointing at it are deleted', async () => {
    const { client } = await api.organization();
    const company = await createCompany(client);
    const leads = [];
    for (const n of [1, 2]) leads.push((await client.post('/v1/leads', { name: `Lead${n} Smith`, email: `lead${n}@example.com`, companyId: company.id })).body.lead);
    await client.delete(`/v1/leads/${leads[0].id}`);
    expect((await client.delete(`/v1/companies/${company.id}`)).status).toBe(409);
    await client.delete(`/v1/leads/${leads[1].id}`);
    expect((await client.delete(`/v1/companies/${company.id}`)).status).toBe(200);
  });

  it('never leaves a lead pointing at a deleted company when a lead links it at the same moment', async () => {
    const { client } = await api.organization();
    for (let round = 0; round < 3; round++) {
      const company = await createCompany(client, { name: `Race ${round}` });
      const [deleted, lead] = await Promise.all([
        client.delete(`/v1/companies/${company.id}`),
        client.post('/v1/leads', { name: `Race${round} Lead`, email: `race${round}@example.com`, companyId: company.id }),
      ]);
      // Exactly one wins: the company is gone and the lead refused, or the lead links it and the delete is refused.
      expect([deleted.status, lead.status].sort()).toEqual(deleted.status === 200 ? [200, 400] : [201, 409]);
      if (lead.status === 201) expect((await client.get(`/v1/companies/${company.id}`)).status).toBe(200);
    }
  });

  it("answers 404 for an unknown company and for another organization's, and leaves it", async () => {
    const mine = await api.organization();
    const company = await createCompany(mine.client);
    const { client } = await api.organization();
    for (const id of [UNKNOWN_COMPANY, company.id]) {
      const res = await client.delete(`/v1/companies/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ status: 404, message: 'Company not found', code: 'NOT_FOUND' });
    }
    expect((await mine.client.get(`/v1/companies/${company.id}`)).body).toEqual({ company });
  });
});

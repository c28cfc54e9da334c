import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { companyCounterNames, companyKeys } from './entity';
import { leadKeys } from '../leads/entity';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { keys } from '#shared/store/keys';
import { addCompanyNote } from './notes-store';
import { readCounter } from '#shared/store/counters';
import { queryAll } from '#shared/store/query-page';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS } from '../../test/support/fixtures';

const api = useTestApi();
const UNKNOWN_COMPANY = 'company_01HZZZZZZZZZZZZZZZZZZZZZZZ';

/** The demo companies of the file's shared demo organization, or with `own`, of a new one that the test may write to. */
async function demoCompanies({ own = false } = {}) {
  const organization = own ? await api.organization({ demo: true }) : await api.demoOrganization();
  return { ...organization, companyIds: organization.demo?.companyIds as string[] };
}

describe('GET /v1/companies/{companyId}/notes', () => {
  it("lists a demo company's notes newest first, with every field", async () => {
    const { client, companyIds, demo } = await demoCompanies();
    expect(companyIds.length).toBeGreaterThanOrEqual(2);
    const harbourside = companyIds[2]!;
    const res = await client.get(`/v1/companies/${harbourside}/notes`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalPages: 1, currentPage: 1, totalCount: 4 });
    const dates = res.body.notes.map((note: { createdAt: string }) => note.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(res.body.notes[0]).toEqual({
      id: expect.any(Number),
      value: 'Asked for a quote to replace the hot water plant at Kurraba Point before winter.',
      companyId: harbourside,
      userId: expect.stringMatching(/^user_/),
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    for (const note of res.body.notes) expect(demo?.userIds).toContain(note.userId);
  });

  it('answers the exact notes the repository wrote, with integer ids from the organization sequence', async () => {
    const { client, organizationId } = await api.organization();
    const { company } = (await client.post('/v1/companies', { name: 'Northside Builders' })).body;
    const first = await addCompanyNote(organizationId, company.id, { value: 'Prefers morning site visits', userId: null });
    const second = await addCompanyNote(organizationId, company.id, { value: 'Pays on 14-day terms', userId: null });
    const res = await client.get(`/v1/companies/${company.id}/notes`);
    expect(res.body).toEqual({ notes: [second, first], totalPages: 1, currentPage: 1, totalCount: 2, nextCursor: null });
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(second).toEqual({
      id: 2,
      value: 'Pays on 14-day terms',
      companyId: company.id,
      userId: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: second.createdAt,
    });
  });

  it('answers an empty first page for a company with no notes', async () => {
    const { client, organizationId } = await api.organization();
    const { company } = (await client.post('/v1/companies', { name: 'Quiet Pty Ltd' })).body;
    const res = await client.get(`/v1/companies/${company.id}/notes`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ notes: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it('pages with page and limit, and answers an empty page past the end', async () => {
    const { client, companyIds } = await demoCompanies();
    const company = companyIds[2]!;
    const all = (await client.get(`/v1/companies/${company}/notes?limit=100`)).body.notes.map((note: { id: number }) => note.id);
    expect(all).toHaveLength(4);
    const page2 = await client.get(`/v1/companies/${company}/notes?page=2&limit=3`);
    expect(page2.body).toMatchObject({ totalPages: 2, currentPage: 2, totalCount: 4 });
    expect(page2.body.notes.map((note: { id: number }) => note.id)).toEqual(all.slice(3));
    const past = await client.get(`/v1/companies/${company}/notes?page=5&limit=3`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ notes: [], totalPages: 2, currentPage: 5, totalCount: 4, nextCursor: null });
  });

  it('answers 404 for an unknown company', async () => {
    const { client } = await api.demoOrganization();
    const res = await client.get(`/v1/companies/${UNKNOWN_COMPANY}/notes`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Company not found', error: { status: 404, message: 'Company not found', code: 'NOT_FOUND' } });
  });

  it("answers 404 for another organization's company", async () => {
    const owner = await demoCompanies();
    const other = await api.organization();
    const res = await other.client.get(`/v1/companies/${owner.companyIds[0]}/notes`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it.each(['page=0', 'limit=101', 'limit=abc'])('answers 400 naming the parameter for %s', async (query) => {
    const { client, companyIds } = await demoCompanies();
    const res = await client.get(`/v1/companies/${companyIds[0]}/notes?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(query.split('=')[0]);
  });

  it('reads a page, or answers 404, with one Query and one counter read', async () => {
    const { client, companyIds } = await demoCompanies();
    expect((await countDynamoCalls(() => client.get(`/v1/companies/${companyIds[2]}/notes?limit=2`))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    expect((await countDynamoCalls(() => client.get(`/v1/companies/${UNKNOWN_COMPANY}/notes`))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });

  it('refuses a note for a company that does not exist, and writes nothing', async () => {
    const { client, organizationId } = await api.organization();
    await expect(addCompanyNote(organizationId, UNKNOWN_COMPANY, { value: 'Lost note', userId: 'user_x' })).rejects.toThrow('Company not found');
    expect(await readCounter(organizationId, companyCounterNames.companyNotes(UNKNOWN_COMPANY))).toBeUndefined();
    expect(await queryAll(companyKeys.companyNotes(organizationId, UNKNOWN_COMPANY))).toEqual([]);
    expect((await client.get(`/v1/companies/${UNKNOWN_COMPANY}/notes`)).status).toBe(404);
  });
});

describe('GET /v1/companies/{companyId}/notes/{noteId}', () => {
  it('answers the note as the list shows it, with one GetItem', async () => {
    const { client, companyIds } = await demoCompanies();
    const listed = (await client.get(`/v1/companies/${companyIds[0]}/notes`)).body.notes[0];
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.get(`/v1/companies/${companyIds[0]}/notes/${listed.id}`);
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ note: listed });
    expect(calls).toEqual(['GetItemCommand']);
  });

  it("answers 404 for a note under another company, a deleted note, and another organization's note", async () => {
    const { client, companyIds } = await demoCompanies({ own: true });
    const note = (await client.post(`/v1/companies/${companyIds[0]}/notes`, { value: 'Gate code is 4412.' })).body.note;
    const other = await api.organization();
    const cases = [
      [client, `/v1/companies/${companyIds[1]}/notes/${note.id}`],
      [client, `/v1/companies/${UNKNOWN_COMPANY}/notes/${note.id}`],
      [other.client, `/v1/companies/${companyIds[0]}/notes/${note.id}`],
    ] as const;
    for (const [who, path] of cases) {
      const res = await who.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toEqual({ status: 404, message: 'Company note not found', code: 'NOT_FOUND' });
    }
    await client.delete(`/v1/companies/${companyIds[0]}/notes/${note.id}`);
    expect((await client.get(`/v1/companies/${companyIds[0]}/notes/${note.id}`)).status).toBe(404);
  });
});

describe('deleting a company and its notes', () => {
  /** What a delete whose first attempt stopped after its transaction leaves: the notes, without the company and their counter. */
  async function companyGoneNotesLeft(organizationId: string, companyId: string) {
    for (const key of [leadKeys.company(organizationId, companyId), keys.counter(organizationId, companyCounterNames.companyNotes(companyId))]) {
      await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: key }));
    }
  }

  it('refuses with 404 the delete of a note its company’s delete has not removed yet, and brings no notes counter back', async () => {
    const { client, organizationId } = await api.organization();
    const company = (await client.post('/v1/companies', { name: 'Harbour Strata' })).body.company;
    const note = (await client.post(`/v1/companies/${company.id}/notes`, { value: 'Strata manager is Lee.' })).body.note;
    await companyGoneNotesLeft(organizationId, company.id);

    const res = await client.delete(`/v1/companies/${company.id}/notes/${note.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ status: 404, message: 'Company not found', code: 'NOT_FOUND' });
    expect(await readCounter(organizationId, companyCounterNames.companyNotes(company.id))).toBeUndefined();
    expect((await client.get(`/v1/companies/${company.id}/notes`)).status).toBe(404);
    expect((await client.post(`/v1/companies/${company.id}/notes`, { value: 'Too late.' })).status).toBe(404);
  });

  it('finishes removing the notes when the delete is retried after its transaction, answering 404', async () => {
    const { client, organizationId } = await api.organization();
    const company = (await client.post('/v1/companies', { name: 'Harbour Strata' })).body.company;
    for (const value of ['Strata manager is Lee.', 'Keys at the front desk.']) await client.post(`/v1/companies/${company.id}/notes`, { value });
    await companyGoneNotesLeft(organizationId, company.id);
    expect(await queryAll(companyKeys.companyNotes(organizationId, company.id))).toHaveLength(2);

    const retried = await client.delete(`/v1/companies/${company.id}`);
    expect(retried.status).toBe(404);
    expect(await queryAll({ ...companyKeys.companyNotes(organizationId, company.id), consistentRead: true })).toEqual([]);
  });

  it('keeps the notes of a company that still has leads, refused with 409', async () => {
    const { client, organizationId } = await api.organization();
    const company = (await client.post('/v1/companies', { name: 'Harbour Strata' })).body.company;
    await client.post(`/v1/companies/${company.id}/notes`, { value: 'Strata manager is Lee.' });
    await client.post('/v1/leads', { name: 'Lee Strata', email: 'lee@strata.example.com', companyId: company.id });
    expect((await client.delete(`/v1/companies/${company.id}`)).status).toBe(409);
    expect(await queryAll({ ...companyKeys.companyNotes(organizationId, company.id), consistentRead: true })).toHaveLength(1);
  });
});

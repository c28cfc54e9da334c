import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { measureDynamoCalls } from '../../test/support/dynamo-calls';

const api = useTestApi();

async function company(client: Client, name: string): Promise<string> {
  const res = await client.post('/v1/companies', { name });
  expect(res.status).toBe(201);
  return res.body.company.id;
}

const ids = (body: { companies: Array<{ id: string }> }) => body.companies.map((found) => found.id);

describe('GET /v1/companies?q=', () => {
  it('matches the start of the name, ignoring case and accents, newest first', async () => {
    const { client } = await api.organization();
    const cote = await company(client, 'Côte Builders');
    const coast = await company(client, 'Coastline Constructions');
    await company(client, 'Harbourside Strata');
    expect(ids((await client.get('/v1/companies?q=co')).body)).toEqual([coast, cote]);
    expect(ids((await client.get('/v1/companies?q=COTE')).body)).toEqual([cote]);
    expect(ids((await client.get(`/v1/companies?q=${encodeURIComponent('coastline con')}`)).body)).toEqual([coast]);
    expect((await client.get('/v1/companies?q=builders')).body.totalCount).toBe(0);
  });

  it('follows a rename and a delete', async () => {
    const { client } = await api.organization();
    const id = await company(client, 'Old Name Pty Ltd');
    expect((await client.patch(`/v1/companies/${id}`, { name: 'New Name Pty Ltd' })).status).toBe(200);
    expect((await client.get('/v1/companies?q=old')).body.totalCount).toBe(0);
    expect(ids((await client.get('/v1/companies?q=new')).body)).toEqual([id]);
    expect((await client.patch(`/v1/companies/${id}`, { phone: '+61299551200' })).status).toBe(200);
    expect(ids((await client.get('/v1/companies?q=new')).body)).toEqual([id]);
    expect((await client.delete(`/v1/companies/${id}`)).status).toBe(200);
    expect((await client.get('/v1/companies?q=new')).body).toEqual({ companies: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it('pages with cursors, each company once, with an exact totalCount, in one DynamoDB call a page', async () => {
    const { client } = await api.organization();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await company(client, `Acme ${i}`));
    await company(client, 'Other Co');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      let res: { status: number; body: any } = { status: 0, body: null };
      const calls = await measureDynamoCalls(async () => {
        res = await client.get(`/v1/companies?q=acme&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      });
      expect(calls.map((call) => call.command)).toEqual(['QueryCommand']);
      expect(res.body.totalCount).toBe(5);
      seen.push(...ids(res.body));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
  });

  it('never finds another organization’s companies', async () => {
    const a = await api.organization();
    const b = await api.organization();
    await company(a.client, 'Private Holdings');
    expect((await a.client.get('/v1/companies?q=private')).body.totalCount).toBe(1);
    expect((await b.client.get('/v1/companies?q=private')).body).toMatchObject({ companies: [], totalCount: 0 });
  });

  it('answers 400 naming q when it has no letter or digit', async () => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/companies?q=${encodeURIComponent('\u0301')}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('q');
  });
});

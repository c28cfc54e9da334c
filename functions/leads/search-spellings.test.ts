import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { leadIds as ids } from '../../test/support/fixtures';

const api = useTestApi();

async function orgIn(timezone: string, country = 'AU') {
  const org = await api.organization();
  expect((await org.client.patch('/v1/organization', { timezone, country })).status).toBe(200);
  return org;
}

let n = 0;
async function lead(client: Client, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/v1/leads', { email: `qa${n++}@example.com`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.lead.id;
}

const search = async (client: Client, q: string, extra = '') => {
  const res = await client.get(`/v1/leads?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
  return ids(res.body);
};

describe('lead name search across scripts and spellings', () => {
  it('finds a Greek name by an upper-case prefix ending in sigma (ΟΔΥΣ finds Οδυσσέας, ΚΩΣ finds Κώστας)', async () => {
    const { client } = await orgIn('Australia/Melbourne');
    const odysseas = await lead(client, { name: 'Οδυσσέας Παπαδόπουλος' });
    const kostas = await lead(client, { name: 'Κώστας Σταματίου' });
    expect(await search(client, 'οδυσ')).toEqual([odysseas]);
    expect(await search(client, 'ΟΔΥΣ')).toEqual([odysseas]);
    expect(await search(client, 'ΚΩΣ')).toEqual([kostas]);
    // Companies are searched by the same key.
    const company = (await client.post('/v1/companies', { name: 'Κώστας Ηλεκτρολογικά' })).body.company.id;
    expect((await client.get(`/v1/companies?q=${encodeURIComponent('ΚΩΣ')}`)).body.companies.map((found: { id: string }) => found.id)).toEqual([company]);
  });

  it('folds Turkish i, ß, Æ/Ø, combining marks, Cyrillic й, Arabic hamza, and splits a CJK name at an ideographic space', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const ipek = await lead(client, { name: 'İpek Yılmaz' });
    const strauss = await lead(client, { name: 'Heinz Strauß' });
    const aegir = await lead(client, { name: 'Ægir Ørnsson' });
    const zoe = await lead(client, { name: 'Zoe\u0308 Decomposed' });
    const ivan = await lead(client, { name: 'Иван Йоргов' });
    const wang = await lead(client, { name: '王 小明' });
    const yamada = await lead(client, { name: '山田\u3000太郎' });
    const ahmad = await lead(client, { name: 'أحمد الخطيب' });
    expect(await search(client, 'ipek')).toEqual([ipek]);
    expect(await search(client, 'IPEK')).toEqual([ipek]);
    expect(await search(client, 'YIL')).toEqual([ipek]);
    expect(await search(client, 'strauss')).toEqual([strauss]);
    expect(await search(client, 'STRAUSS')).toEqual([strauss]);
    expect(await search(client, 'Strauß')).toEqual([strauss]);
    expect(await search(client, 'aegir')).toEqual([aegir]);
    expect(await search(client, 'orn')).toEqual([aegir]);
    expect(await search(client, 'Zoë')).toEqual([zoe]);
    expect(await search(client, 'ИВ')).toEqual([ivan]);
    expect(await search(client, 'йор')).toEqual([ivan]);
    expect(await search(client, '小')).toEqual([wang]);
    expect(await search(client, '太郎')).toEqual([yamada]);
    expect(await search(client, 'احمد')).toEqual([ahmad]);
  });

  it('finds a name by its letters when the apostrophe or hyphen in it is not typed (obrien finds O’Brien, anne marie finds Anne-Marie)', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const obrien = await lead(client, { name: "Liam O'Brien" });
    const dangelo = await lead(client, { name: 'Marco D’Angelo' });
    const annemarie = await lead(client, { name: 'Anne-Marie Dupont' });
    const berg = await lead(client, { name: 'Pieter van der Berg' });
    // As typed with the punctuation: these hold.
    expect(await search(client, "d'angelo")).toEqual([dangelo]);
    expect(await search(client, 'van der b')).toEqual([berg]);
    expect(await search(client, 'anne-m')).toEqual([annemarie]);
    // As a front desk types them: without it.
    expect(await search(client, 'obrien')).toEqual([obrien]);
    expect(await search(client, 'dangelo')).toEqual([dangelo]);
    expect(await search(client, 'anne marie')).toEqual([annemarie]);
  });

  it('trims the spaces around a name and its search, and finds a name with an emoji in it', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const spaced = await lead(client, { firstName: '  Trent ', lastName: ' Boult  ' });
    const emoji = await lead(client, { name: 'Rosie 🌹 Parker' });
    expect(await search(client, 'trent boult')).toEqual([spaced]);
    expect(await search(client, '  boult  ')).toEqual([spaced]);
    expect(await search(client, 'rosie')).toEqual([emoji]);
    const got = (await client.get(`/v1/leads/${spaced}`)).body.lead;
    expect([got.firstName, got.lastName]).toEqual(['Trent', 'Boult']);
  });
});

describe('paging a search', () => {
  it('walks a name search with a status filter by cursor and by page alike, exact totalCount, empty past the end, and refuses its cursor under another filter', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const won: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await lead(client, { firstName: `Dan${i}`, lastName: i % 2 ? 'Danvers' : 'Other' });
      if (i % 3 !== 0) {
        expect((await client.patch(`/v1/leads/${id}`, { status: 'WON' })).status).toBe(200);
        won.push(id);
      }
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: any } = await client.get(`/v1/leads?q=dan&status=WON&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.totalCount).toBe(won.length);
      expect(res.body.totalPages).toBe(Math.ceil(won.length / 2));
      seen.push(...ids(res.body));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...won].reverse());
    const byPage: string[] = [];
    for (let page = 1; page <= 3; page++) byPage.push(...ids((await client.get(`/v1/leads?q=dan&status=WON&limit=2&page=${page}`)).body));
    expect(byPage).toEqual([...won].reverse());
    const beyond = await client.get('/v1/leads?q=dan&status=WON&limit=2&page=9');
    expect(beyond.status).toBe(200);
    expect(beyond.body).toMatchObject({ leads: [], totalCount: won.length, nextCursor: null, currentPage: 9 });
    const first = (await client.get('/v1/leads?q=dan&status=WON&limit=2')).body.nextCursor;
    const other = await client.get(`/v1/leads?q=dan&status=NEW&limit=2&cursor=${first}`);
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('INVALID_CURSOR');
    const plain = await client.get(`/v1/leads?limit=2&cursor=${first}`);
    expect(plain.status).toBe(400);
    for (const limit of ['0', '101', '-1', '1.5', 'abc']) expect((await client.get(`/v1/leads?q=dan&limit=${limit}`)).status, limit).toBe(400);
    for (const page of ['0', '-1']) expect((await client.get(`/v1/leads?q=dan&page=${page}`)).status, page).toBe(400);
    expect((await client.get('/v1/leads?q=dan&limit=100')).body.leads.length).toBe(7);
    expect((await client.get('/v1/leads?q=dan&updatedSince=2020-01-01T00:00:00Z')).status).toBe(400);
  });
});

describe('email and phone search', () => {
  it('finds a plus-addressed email in any case with spaces around it, and not once its lead is deleted', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const id = await lead(client, { name: 'Plus Person', email: 'Plus.Person+Quotes@Example.com' });
    expect(await search(client, 'plus.person+quotes@example.com')).toEqual([id]);
    expect(await search(client, '  PLUS.PERSON+QUOTES@EXAMPLE.COM  ')).toEqual([id]);
    expect(ids((await client.get(`/v1/leads?email=${encodeURIComponent(' plus.person+quotes@example.com ')}`)).body)).toEqual([id]);
    expect((await client.delete(`/v1/leads/${id}`)).status).toBe(200);
    expect(await search(client, 'plus.person+quotes@example.com')).toEqual([]);
  });

  it('reads Australian mobiles and landlines in dotted, bracketed and dashed forms, a US number by its +1, and a deleted lead’s phone finds nobody, on search and caller lookup', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const id = await lead(client, { name: 'Phone Person', phone: '+61412345678' });
    const landline = await lead(client, { name: 'Land Line', phone: '+61298765432' });
    for (const form of ['0412 345 678', '0412.345.678', '(0412) 345-678', '+61 (0)412 345 678', ' 0412345678 ', '+61-412-345-678']) {
      expect(await search(client, form), form).toEqual([id]);
    }
    for (const form of ['(02) 9876 5432', '02 9876 5432', '+61 2 9876 5432']) expect(await search(client, form), form).toEqual([landline]);
    const us = await lead(client, { name: 'Us Caller', phone: '+14155552671' });
    expect(await search(client, '+1 (415) 555-2671')).toEqual([us]);
    expect((await client.delete(`/v1/leads/${landline}`)).status).toBe(200);
    expect(await search(client, '02 9876 5432')).toEqual([]);
    const caller = await client.get(`/v1/callers/${encodeURIComponent('(02) 9876 5432')}`);
    expect(caller.status).toBe(200);
    expect(caller.body.caller.lead).toBeNull();
  });

  it('finds an Australian mobile typed with its country code and its 0 (+61 0412 345 670), as it does +61 (0)412 345 670', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const id = await lead(client, { name: 'Trunk Person', phone: '+61412345670' });
    expect(await search(client, '+61 (0)412 345 670')).toEqual([id]);
    expect(await search(client, '+61 0412 345 670')).toEqual([id]);
    expect(await search(client, '0061 0412 345 670')).toEqual([id]);
    // A UK number written with its 0 after +44, in any organization.
    const uk = await lead(client, { name: 'London Office', phone: '+442071234567' });
    expect(await search(client, '+44 020 7123 4567')).toEqual([uk]);
  });

  it('reads every common US form of a number in a New York organization (country US), on search and caller lookup', async () => {
    const { client } = await orgIn('America/New_York', 'US');
    const id = await lead(client, { name: 'Nyc Person', phone: '+12125550123' });
    for (const form of ['(212) 555-0123', '212-555-0123', '212.555.0123', '1 212 555 0123', '1-212-555-0123', '+1 212 555 0123', '2125550123']) {
      expect(await search(client, form), form).toEqual([id]);
      expect((await client.get(`/v1/callers/${encodeURIComponent(form)}`)).body.caller.lead?.id, form).toBe(id);
    }
  });
});

describe('company search', () => {
  it('ignores the apostrophe typed and the spaces around a name, follows a PUT rename, and refuses q with updatedSince', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const mk = async (name: string) => {
      const res = await client.post('/v1/companies', { name });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.company.id as string;
    };
    const ob = await mk('O’Brien Plumbing');
    const sp = await mk('  Spaced Builders  ');
    const cids = (body: any) => body.companies.map((c: any) => c.id);
    expect(cids((await client.get(`/v1/companies?q=${encodeURIComponent("o'brien")}`)).body)).toEqual([ob]);
    expect(cids((await client.get(`/v1/companies?q=${encodeURIComponent('spaced b')}`)).body)).toEqual([sp]);
    expect((await client.get('/v1/companies?q=spa&updatedSince=2020-01-01T00:00:00Z')).status).toBe(400);
    expect((await client.put(`/v1/companies/${sp}`, { name: 'Renamed Co' })).status).toBe(200);
    expect((await client.get('/v1/companies?q=spaced')).body.totalCount).toBe(0);
    expect(cids((await client.get('/v1/companies?q=renamed')).body)).toEqual([sp]);
  });
});

describe('every writer of a lead keeps its search right', () => {
  it('finds a lead created by ingestion, renamed by upserts, and moved between companies and statuses by its current name, company and status only', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const ingested = await client.post('/v1/inquiries', {
      source: 'EMAIL',
      lead: { email: 'ingrid@example.com', name: 'Ingrid Bergman' },
      data: { subject: 'Quote', from: 'ingrid@example.com', to: 'office@example.com', body: 'Hi', receivedAt: '2026-11-20T10:00:00.000Z' },
    });
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(201);
    const ingrid = ingested.body.inquiry.leadId;
    expect(await search(client, 'berg')).toEqual([ingrid]);
    const up = await client.post('/v1/leads/upsert', { match: 'email', email: 'INGRID@example.com', name: 'Ingrid Thompson' });
    expect(up.status).toBe(200);
    expect(await search(client, 'berg')).toEqual([]);
    expect(await search(client, 'thom')).toEqual([ingrid]);
    const upOne = await client.post('/v1/leads/upsert', { match: 'email', email: 'ingrid@example.com', name: 'Solo' });
    expect(upOne.status).toBe(200);
    expect(await search(client, 'thom')).toEqual([]);
    expect(await search(client, 'solo')).toEqual([ingrid]);
    const a = (await client.post('/v1/companies', { name: 'Alpha Co' })).body.company.id;
    const b = (await client.post('/v1/companies', { name: 'Beta Co' })).body.company.id;
    expect((await client.patch(`/v1/leads/${ingrid}`, { companyId: a })).status).toBe(200);
    expect(await search(client, 'solo', `&companyId=${a}`)).toEqual([ingrid]);
    expect((await client.patch(`/v1/leads/${ingrid}`, { companyId: b, status: 'QUOTED' })).status).toBe(200);
    expect(await search(client, 'solo', `&companyId=${a}`)).toEqual([]);
    expect(await search(client, 'solo', `&companyId=${b}&status=QUOTED`)).toEqual([ingrid]);
    expect(await search(client, 'ingrid@example.com', `&companyId=${b}&status=QUOTED`)).toEqual([ingrid]);
    expect(await search(client, 'ingrid@example.com', `&companyId=${a}`)).toEqual([]);
    expect((await client.patch(`/v1/leads/${ingrid}`, { companyId: null })).status).toBe(200);
    expect(await search(client, 'solo', `&companyId=${b}`)).toEqual([]);
  });

  it('pages a company search by page and cursor alike, empty past the end, its cursor refused under another prefix or the plain list', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await client.post('/v1/companies', { name: `Acme ${i}` })).body.company.id);
    await client.post('/v1/companies', { name: 'Other' });
    const cids = (body: any) => body.companies.map((c: any) => c.id);
    const p1 = (await client.get('/v1/companies?q=acme&limit=2')).body;
    expect(p1).toMatchObject({ totalCount: 5, totalPages: 3 });
    const byPage = [...cids(p1), ...cids((await client.get('/v1/companies?q=acme&limit=2&page=2')).body), ...cids((await client.get('/v1/companies?q=acme&limit=2&page=3')).body)];
    expect(byPage).toEqual([...made].reverse());
    expect((await client.get('/v1/companies?q=acme&limit=2&page=4')).body).toMatchObject({ companies: [], totalCount: 5, nextCursor: null });
    expect((await client.get(`/v1/companies?q=acm&limit=2&cursor=${p1.nextCursor}`)).status).toBe(400);
    expect((await client.get(`/v1/companies?limit=2&cursor=${p1.nextCursor}`)).status).toBe(400);
    expect((await client.get(`/v1/companies?q=ACME&limit=2&cursor=${p1.nextCursor}`)).status).toBe(200);
  });
});

describe('sync paging', () => {
  it('walks the leads changed since a time by page=N, oldest first, with an exact totalCount', async () => {
    const { client } = await orgIn('Australia/Sydney');
    const since = new Date(Date.now() - 1000).toISOString();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await lead(client, { name: `Sync ${i}` }));
    const byPage: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = (await client.get(`/v1/leads?updatedSince=${since}&limit=2&page=${page}`)).body;
      expect(res.totalCount).toBe(5);
      byPage.push(...ids(res));
    }
    expect(byPage).toEqual(made);
    const beyond = await client.get(`/v1/leads?updatedSince=${since}&limit=2&page=5`);
    expect(beyond.status).toBe(200);
    expect(beyond.body.leads).toEqual([]);
  });
});

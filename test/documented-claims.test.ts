import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from './support/api';
import { created, ISO_MS, everyDay, inDays } from './support/fixtures';

/** Claims of README.md, docs/decisions and the OpenAPI document, each checked against the running API. */

const api = useTestApi();

const OPEN_ALL_DAY = everyDay([{ open: '00:00', close: '24:00' }]);

const oneHourService = (client: Client) =>
  created(client, '/v1/services', 'service', { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });

describe('POST /v1/transfers/{transferId}/resolve and Idempotency-Key (openapi.json: 409 IDEMPOTENCY_KEY_REUSED)', () => {
  it('answers a reused key on another call 409 IDEMPOTENCY_KEY_REUSED and replays the same call', async () => {
    const { client } = await api.organization();
    const rule = await created(client, '/v1/transfers', 'transfer', { label: 'Office', method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'Any call.' });
    const call = { name: 'Olivia', topic: 'a burst pipe', summary: 'Water everywhere.' };
    const first = await client.post(`/v1/transfers/${rule.id}/resolve`, call, { headers: { 'Idempotency-Key': 'resolve-1' } });
    expect(first.status).toBe(200);
    const again = await client.post(`/v1/transfers/${rule.id}/resolve`, call, { headers: { 'Idempotency-Key': 'resolve-1' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await client.post(`/v1/transfers/${rule.id}/resolve`, { ...call, name: 'Sam' }, { headers: { 'Idempotency-Key': 'resolve-1' } });
    expect([other.status, other.body.error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
  });
});

describe('GET /v1/availability', () => {
  it('takes step from 5 to 240 minutes only (receptionist-and-appointments.md)', async () => {
    const { client } = await api.organization();
    await client.patch('/v1/organization', { businessHours: OPEN_ALL_DAY });
    const service = await oneHourService(client);
    for (const step of [4, 241]) {
      const res = await client.get(`/v1/availability?serviceId=${service.id}&step=${step}`);
      expect([step, res.status, res.body.error?.details?.[0]?.path]).toEqual([step, 400, 'step']);
    }
    for (const step of [5, 240]) expect((await client.get(`/v1/availability?serviceId=${service.id}&step=${step}`)).status).toBe(200);
  });

  it('defaults the window to 7 days from now (receptionist-and-appointments.md)', async () => {
    const { client } = await api.organization();
    await client.patch('/v1/organization', { businessHours: OPEN_ALL_DAY });
    const service = await oneHourService(client);
    await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const res = await client.get(`/v1/availability?serviceId=${service.id}&step=240`);
    expect(res.status).toBe(200);
    const starts = res.body.slots.map((slot: { startsAt: string }) => Date.parse(slot.startsAt));
    expect(Math.max(...starts)).toBeLessThan(Date.now() + 7 * 86_400_000);
    expect(Math.max(...starts)).toBeGreaterThan(Date.now() + 6.5 * 86_400_000);
  });

  it('with only `from` sent, answers the 7 days from it (openapi.json: "now and 7 days on by default")', async () => {
    const { client } = await api.organization();
    await client.patch('/v1/organization', { businessHours: OPEN_ALL_DAY });
    const service = await oneHourService(client);
    await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const from = inDays(10);
    const res = await client.get(`/v1/availability?serviceId=${service.id}&step=240&from=${encodeURIComponent(from)}`);
    expect(res.status).toBe(200);
    const starts = res.body.slots.map((slot: { startsAt: string }) => Date.parse(slot.startsAt));
    // Open around the clock, one member, a slot every 4 hours: 42 in the 7 days from `from`, each within them.
    expect(starts).toHaveLength(42);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(Date.parse(from));
    expect(Math.max(...starts)).toBeLessThan(Date.parse(from) + 7 * 86_400_000);
  });
});

describe('GET /v1/callers/{phone} (receptionist-and-appointments.md)', () => {
  it('answers the latest 5 inquiries and the next 5 appointments', async () => {
    const { client } = await api.organization();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
    for (let i = 0; i < 7; i++) {
      await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { phone: '+61412345001' }, summary: `Job ${i}`, data: { formName: 'Contact', submittedAt: '2026-11-20T09:00:00Z', pageUrl: 'https://example.com/c', fields: [{ name: 'message', label: 'Message', value: `Job ${i}` }] } });
      await client.post('/v1/appointments', { leadId: lead.id, title: `Visit ${i}`, startsAt: inDays(i + 1), endsAt: inDays(i + 1, 1) });
    }
    const res = await client.get('/v1/callers/%2B61412345001');
    expect(res.body.caller.openInquiries).toHaveLength(5);
    expect(res.body.caller.upcomingAppointments).toHaveLength(5);
  });
});

describe('the organization', () => {
  it('takes an smsSenderId of an E.164 number, or 1 to 11 letters and digits with at least one letter (README.md)', async () => {
    const { client } = await api.organization();
    for (const senderId of ['+61412345678', 'HARBOUR1', 'H', 'HARBOURCITY']) expect((await client.patch('/v1/organization', { smsSenderId: senderId })).status, senderId).toBe(200);
    for (const senderId of ['12345', 'HARBOURCITY1', 'HARBOUR CITY']) {
      const res = await client.patch('/v1/organization', { smsSenderId: senderId });
      expect([senderId, res.status, res.body.error?.details?.[0]?.path]).toEqual([senderId, 400, 'smsSenderId']);
    }
  });

  it('made without demo data is in UTC and, with no hours set, answers null for isOpenNow, closesAt and nextOpenAt (organization.md)', async () => {
    const { client } = await api.organization();
    const { organization } = (await client.get('/v1/organization')).body;
    expect(organization).toMatchObject({ timezone: 'UTC', isOpenNow: null, closesAt: null, nextOpenAt: null });
  });

  it('takes at most 6 periods a day and 366 closed dates (organization.md)', async () => {
    const { client } = await api.organization();
    const periods = Array.from({ length: 7 }, (_, i) => ({ open: `${String(i * 2).padStart(2, '0')}:00`, close: `${String(i * 2 + 1).padStart(2, '0')}:00` }));
    const seven = await client.patch('/v1/organization', { businessHours: { monday: periods } });
    expect(seven.status).toBe(400);
    expect((await client.patch('/v1/organization', { businessHours: { monday: periods.slice(0, 6) } })).status).toBe(200);
    const dates = Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1) + i * 86_400_000).toISOString().slice(0, 10));
    expect((await client.patch('/v1/organization', { closedDates: dates })).status).toBe(400);
    expect((await client.patch('/v1/organization', { closedDates: dates.slice(0, 366) })).status).toBe(200);
  });
});

describe('members', () => {
  it('are listed newest first (api-conventions.md)', async () => {
    const { client } = await api.organization();
    const a = await created(client, '/v1/organization/members', 'member', { email: 'a@example.com', firstName: 'A', lastName: 'A' });
    const b = await created(client, '/v1/organization/members', 'member', { email: 'b@example.com', firstName: 'B', lastName: 'B' });
    const ids = (await client.get('/v1/organization/members')).body.members.map((m: { id: number }) => m.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
  });
});

describe('deletes', () => {
  it('of a transfer rule and a policy answer {success: true, id}, and the label is free at once (services-and-products.md)', async () => {
    const { client } = await api.organization();
    const body = { label: 'Office', method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'Any call.' };
    const rule = await created(client, '/v1/transfers', 'transfer', body);
    expect((await client.delete(`/v1/transfers/${rule.id}`)).body).toEqual({ success: true, id: rule.id });
    expect((await client.post('/v1/transfers', body)).status).toBe(201);
    const policy = await created(client, '/v1/policies', 'policy', { title: 'Refunds', content: 'Within 30 days.' });
    expect((await client.delete(`/v1/policies/${policy.id}`)).body).toEqual({ success: true, id: policy.id });
  });
});

describe('lists', () => {
  it('answer a page past the end 200 with an empty array (api-conventions.md)', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/leads?page=50&limit=10');
    expect(res.status).toBe(200);
    expect(res.body.leads).toEqual([]);
  });

  it('refuse a parameter given twice, naming it (api-conventions.md)', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/leads?status=NEW&status=LOST');
    expect([res.status, res.body.error?.details?.[0]?.path]).toEqual([400, 'status']);
  });

  it('filter services by a catalog tradeCategoryId only, and list none for a scenarioId naming nothing (services-and-products.md)', async () => {
    const { client } = await api.organization();
    const bad = await client.get('/v1/services?tradeCategoryId=999');
    expect([bad.status, bad.body.error?.details?.[0]?.path]).toEqual([400, 'tradeCategoryId']);
    const none = await client.get('/v1/transfers?scenarioId=999');
    expect([none.status, none.body.transfers]).toEqual([200, []]);
  });
});

describe('PATCH /v1/products/batch (services-and-products.md)', () => {
  it('answers NOT_FOUND for a deleted product', async () => {
    const { client } = await api.organization();
    const product = await created(client, '/v1/products', 'product', { name: 'Tap washer', tradeCategoryId: 1, pricingType: 'FIXED', price: 120 });
    await client.delete(`/v1/products/${product.id}`);
    const res = await client.patch('/v1/products/batch', { updates: [{ id: product.id, name: 'Back' }] });
    expect(res.body.results[0]).toMatchObject({ id: product.id, status: 'error', code: 'NOT_FOUND' });
  });
});

describe('inbound endpoints (README.md)', () => {
  it('take https only for redirectUrl, errorRedirectUrl and allowedOrigins', async () => {
    const { client } = await api.organization();
    for (const field of [{ redirectUrl: 'http://example.com/t' }, { errorRedirectUrl: 'http://example.com/e' }, { allowedOrigins: ['http://example.com'] }]) {
      const res = await client.post('/v1/inbound-endpoints', { name: 'Form', source: 'WEBFORM', ...field });
      expect([Object.keys(field)[0], res.status]).toEqual([Object.keys(field)[0], 400]);
    }
  });
});

describe('Cache-Control: no-store on every answer (api-conventions.md)', () => {
  it('on a 304 of the receptionist context', async () => {
    const { client } = await api.organization();
    const first = await client.get('/v1/receptionist/context');
    const etag = first.headers.get('etag')!;
    const res = await client.get('/v1/receptionist/context', { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('allowedOrigins (inbound.md)', () => {
  it('takes at most 20 origins', async () => {
    const { client } = await api.organization();
    const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://site${i}.example.com`);
    expect((await client.post('/v1/inbound-endpoints', { name: 'Form', source: 'WEBFORM', allowedOrigins: origins(20) })).status).toBe(201);
    const res = await client.post('/v1/inbound-endpoints', { name: 'Form', source: 'WEBFORM', allowedOrigins: origins(21) });
    expect([res.status, res.body.error?.details?.[0]?.path]).toEqual([400, 'allowedOrigins']);
  });
});

describe('DELETE /v1/services/{id} with its scenario named by transfer rules (store.md, security.md)', () => {
  const rule = (label: string, scenarioId: number) => ({ label, method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'Any call.', scenarioId });

  it('deletes a service whose scenario 47 rules name, clearing each, and answers 409 for 48 with nothing deleted', async () => {
    const { client } = await api.organization();
    const named = async (count: number, tag: string) => {
      const service = await created(client, '/v1/services', 'service', { name: `Gas check ${tag}`, description: 'Gas', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });
      for (let i = 0; i < count; i++) await created(client, '/v1/transfers', 'transfer', rule(`${tag} ${i}`, service.scenario.id));
      return service;
    };
    const fortySeven = await named(47, 'a');
    const deleted = await client.delete(`/v1/services/${fortySeven.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const fortyEight = await named(48, 'b');
    const refused = await client.delete(`/v1/services/${fortyEight.id}`);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect((await client.get(`/v1/services/${fortyEight.id}`)).status).toBe(200);
  });
});

describe('the README voice-agent session (README.md) against the demo organization', () => {
  it('looks up callers, loads the context, resolves a transfer, holds a free slot and books it', async () => {
    const { client } = await api.organization({ demo: true });
    const olivia = await client.get('/v1/callers/%2B61412345001');
    expect(olivia.body.caller.lead).toMatchObject({ firstName: 'Olivia', lastName: 'Nguyen' });
    const nobody = await client.get('/v1/callers/0400%20000%20000');
    expect([nobody.status, nobody.body.caller.lead]).toEqual([200, null]);
    const context = await client.get('/v1/receptionist/context');
    const etag = context.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect((await client.get('/v1/receptionist/context', { headers: { 'if-none-match': etag! } })).status).toBe(304);
    const transfers = (await client.get('/v1/transfers?availableNow=true&limit=1')).body.transfers;
    expect(transfers.length).toBe(1);
    const resolved = await client.post(`/v1/transfers/${transfers[0].id}/resolve`, { name: 'Olivia Nguyen', topic: 'a burst pipe', summary: 'Water through the kitchen ceiling.' });
    expect([200, 409]).toContain(resolved.status);
    const service = (await client.get('/v1/services?isActive=true&limit=1')).body.services[0];
    const slots = (await client.get(`/v1/availability?serviceId=${service.id}`)).body.slots;
    expect(slots[0]).toMatchObject({ startsAt: expect.stringMatching(ISO_MS) });
    const hold = await client.post('/v1/availability/holds', { serviceId: service.id, startsAt: slots[0].startsAt });
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    const booked = await client.post('/v1/appointments', { leadId: olivia.body.caller.lead.id, holdId: hold.body.hold.id }, { headers: { 'Idempotency-Key': `book-${hold.body.hold.id}` } });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  });

  it('answers the README MCP call (README.md)', async () => {
    const { client } = await api.organization({ demo: true });
    const res = await client.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup_caller', arguments: { phone: '+61412345001' } } }, { headers: { accept: 'application/json, text/event-stream' } });
    expect(res.status).toBe(200);
    expect(res.body.result.isError ?? false).toBe(false);
    expect(res.body.result.structuredContent.caller.lead.firstName).toBe('Olivia');
  });
});

describe('cursor pagination (api-conventions.md)', () => {
  it('echoes page as currentPage with a cursor, 1 unless sent', async () => {
    const { client } = await api.organization();
    for (const name of ['Ann Lee', 'Bob Lee', 'Cat Lee']) await created(client, '/v1/leads', 'lead', { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` });
    const first = (await client.get('/v1/leads?limit=1')).body;
    const cursor = encodeURIComponent(first.nextCursor);
    expect((await client.get(`/v1/leads?limit=1&cursor=${cursor}`)).body.currentPage).toBe(1);
    expect((await client.get(`/v1/leads?limit=1&page=3&cursor=${cursor}`)).body.currentPage).toBe(3);
  });
});

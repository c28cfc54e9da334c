import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { ISO_MS } from '../../test/support/fixtures';
import { leadKeys } from './entity';
import { queryAll } from '#shared/store/query-page';

const api = useTestApi({ events: true });

const newLead = async (client: Client, fields: Record<string, unknown> = {}) => {
  const res = await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com', ...fields });
  expect(res.status).toBe(201);
  return res.body.lead;
};

const patch = async (client: Client, leadId: string, body: Record<string, unknown>) => {
  const res = await client.patch(`/v1/leads/${leadId}`, body);
  expect(res.status).toBe(200);
  return res.body.lead;
};

describe('a lead’s value', () => {
  it('is null until set, taken by create, PATCH and upsert, answered by reads and lists, and cleared by null', async () => {
    const { client } = await api.organization();
    expect(await newLead(client, { email: 'none@example.com' })).toMatchObject({ value: null, lostReason: null, wonAt: null, lostAt: null });
    const lead = await newLead(client, { value: 4500.5 });
    expect(lead.value).toBe(4500.5);
    expect((await patch(client, lead.id, { value: 0.07 })).value).toBe(0.07);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.value).toBe(0.07);
    const listed = (await client.get('/v1/leads')).body.leads.find((each: { id: string }) => each.id === lead.id);
    expect(listed.value).toBe(0.07);
    const upserted = await client.post('/v1/leads/upsert', { match: 'email', email: 'olivia@example.com', value: 12000 });
    expect([upserted.status, upserted.body.created, upserted.body.lead.value]).toEqual([200, false, 12000]);
    const made = await client.post('/v1/leads/upsert', { match: 'email', email: 'new@example.com', name: 'Sam Tradie', value: 99.99 });
    expect([made.status, made.body.lead.value]).toEqual([201, 99.99]);
    expect((await patch(client, lead.id, { value: null })).value).toBeNull();
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.value).toBeNull();
  });

  it.each([
    ['three decimals', 19.999, 'value must have at most 2 decimal places'],
    ['a negative amount', -1, 'value must not be negative'],
    ['text', 'abc', 'value must be a number'],
  ])('answers 400 naming value for %s, and writes nothing', async (_, value, message) => {
    const { client } = await api.organization();
    const lead = await newLead(client, { value: 10 });
    const created = await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com', value });
    expect([created.status, created.body.error.details[0].path, created.body.error.details[0].message]).toEqual([400, 'value', message]);
    const changed = await client.patch(`/v1/leads/${lead.id}`, { firstName: 'Liv', status: 'WON', value });
    expect([changed.status, changed.body.error.details[0].path]).toEqual([400, 'value']);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });
});

describe('wonAt and lostAt', () => {
  it('stamps wonAt with the change’s time when the status moves to WON, in the write that moves it, and clears it when it moves back', async () => {
    const { client } = await api.organization();
    const lead = await newLead(client, { status: 'QUOTED', value: 4500 });
    const won = await patch(client, lead.id, { status: 'WON' });
    expect(won).toMatchObject({ status: 'WON', value: 4500, wonAt: expect.stringMatching(ISO_MS), lostAt: null });
    expect(won.wonAt).toBe(won.updatedAt);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(won);
    // Sending WON again is no move: the lead keeps the time it was won.
    expect((await patch(client, lead.id, { status: 'WON', suburb: 'Parramatta' })).wonAt).toBe(won.wonAt);
    const reopened = await patch(client, lead.id, { status: 'QUOTED' });
    expect(reopened).toMatchObject({ status: 'QUOTED', wonAt: null, lostAt: null });
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(reopened);
  });

  it('stamps lostAt and keeps the reason on a move to LOST; a move to WON clears both', async () => {
    const { client } = await api.organization();
    const lead = await newLead(client, { status: 'QUOTED' });
    const lost = await patch(client, lead.id, { status: 'LOST', lostReason: 'PRICE' });
    expect(lost).toMatchObject({ status: 'LOST', lostReason: 'PRICE', lostAt: lost.updatedAt, wonAt: null });
    // A LOST lead's reason may change, free text included, without moving lostAt.
    const reworded = await patch(client, lead.id, { lostReason: '  Went with their brother-in-law ' });
    expect(reworded).toMatchObject({ lostReason: 'Went with their brother-in-law', lostAt: lost.lostAt });
    const won = await patch(client, lead.id, { status: 'WON' });
    expect(won).toMatchObject({ status: 'WON', wonAt: won.updatedAt, lostAt: null, lostReason: null });
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(won);
  });

  it('clears lostAt and the reason when a LOST lead moves back into the pipeline', async () => {
    const { client } = await api.organization();
    const lead = await newLead(client, { status: 'LOST', lostReason: 'TIMING' });
    expect(await patch(client, lead.id, { status: 'CONTACTED' })).toMatchObject({ status: 'CONTACTED', lostAt: null, lostReason: null, wonAt: null });
  });

  it('stamps a lead created WON or LOST, by create or upsert, with its createdAt', async () => {
    const { client } = await api.organization();
    const won = await newLead(client, { status: 'WON', value: 800 });
    expect(won).toMatchObject({ wonAt: won.createdAt, lostAt: null });
    const lost = await newLead(client, { email: 'lost@example.com', status: 'LOST', lostReason: 'COMPETITOR' });
    expect(lost).toMatchObject({ lostAt: lost.createdAt, wonAt: null, lostReason: 'COMPETITOR' });
    const upserted = (await client.post('/v1/leads/upsert', { match: 'phone', phone: '0412 345 678', name: 'Sam Tradie', status: 'WON' })).body.lead;
    expect(upserted).toMatchObject({ wonAt: upserted.createdAt, lostAt: null });
  });

  it('are read-only: a create or PATCH sending them answers 400 naming the field', async () => {
    const { client } = await api.organization();
    const lead = await newLead(client);
    for (const field of ['wonAt', 'lostAt']) {
      const body = { [field]: '2026-11-20T04:12:09.512Z' };
      expect((await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com', ...body })).body.error.details[0].path).toBe(field);
      const res = await client.patch(`/v1/leads/${lead.id}`, body);
      expect([res.status, res.body.error.details[0].path]).toEqual([400, field]);
    }
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
  });

  it('are recorded at the time of the STATUS_CHANGED activity, whose item keeps the statuses the API states in words', async () => {
    const { client, organizationId } = await api.organization();
    const lead = await newLead(client, { status: 'QUOTED' });
    const won = await patch(client, lead.id, { status: 'WON' });
    const [changed] = (await client.get(`/v1/leads/${lead.id}/activities`)).body.activities;
    expect(changed).toMatchObject({ event: 'STATUS_CHANGED', data: 'Status changed from QUOTED to WON', createdAt: won.wonAt, updatedAt: won.wonAt });
    expect(changed).not.toHaveProperty('fromStatus');
    const items = await queryAll(leadKeys.activities(organizationId, lead.id));
    expect(items.find((item) => item.event === 'STATUS_CHANGED')).toMatchObject({ fromStatus: 'QUOTED', toStatus: 'WON', updatedAt: won.updatedAt });
  });

  it('reach subscribers: lead.updated carries wonAt with the status it moved from', async () => {
    const { client } = await api.organization();
    const lead = await newLead(client, { status: 'QUOTED', value: 4500 });
    const won = await patch(client, lead.id, { status: 'WON' });
    await api.eventsCaughtUp();
    const [updated] = (await client.get('/v1/events?type=lead.updated')).body.events;
    expect(updated.data).toEqual(won);
    expect(won.statusChangedAt).toBe(won.wonAt);
    expect(updated.previousAttributes).toEqual({ status: 'QUOTED', wonAt: null, statusChangedAt: lead.createdAt });
  });
});

describe('lostReason', () => {
  it('takes a documented reason or free text of up to 200 characters', async () => {
    const { client } = await api.organization();
    const lead = await newLead(client, { status: 'LOST', lostReason: 'NOT_A_FIT' });
    expect((await patch(client, lead.id, { lostReason: 'x'.repeat(200) })).lostReason).toHaveLength(200);
    expect((await patch(client, lead.id, { lostReason: null })).lostReason).toBeNull();
  });

  it('answers 400 naming lostReason for 201 characters, and writes nothing', async () => {
    const { client } = await api.organization();
    const lead = await newLead(client, { status: 'QUOTED' });
    const res = await client.patch(`/v1/leads/${lead.id}`, { status: 'LOST', lostReason: 'x'.repeat(201) });
    expect([res.status, res.body.error.details[0].path]).toEqual([400, 'lostReason']);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
  });

  it('answers 400 naming lostReason when the lead is not LOST, on create and on change, and writes nothing', async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com', status: 'QUOTED', lostReason: 'PRICE' });
    expect([created.status, created.body.error.details[0].path]).toEqual([400, 'lostReason']);
    const lead = await newLead(client, { status: 'LOST', lostReason: 'PRICE' });
    const moved = await client.patch(`/v1/leads/${lead.id}`, { status: 'WON', lostReason: 'TIMING' });
    expect([moved.status, moved.body.error.details[0].path]).toEqual([400, 'lostReason']);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });
});

describe('the organization’s currency', () => {
  it('is AUD until changed; PATCH takes an ISO 4217 code in any case and stores it upper case', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/organization')).body.organization.currency).toBe('AUD');
    const res = await client.patch('/v1/organization', { currency: 'nzd' });
    expect([res.status, res.body.organization.currency]).toEqual([200, 'NZD']);
    expect((await client.get('/v1/organization')).body.organization.currency).toBe('NZD');
  });

  it.each([['XYZ'], ['AU'], [36], ['']])('answers 400 naming currency for %j and keeps the one it had', async (currency) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { name: 'Renamed', currency });
    expect([res.status, res.body.error.details[0].path]).toEqual([400, 'currency']);
    expect((await client.get('/v1/organization')).body.organization).toMatchObject({ currency: 'AUD', name: expect.not.stringMatching('Renamed') });
  });
});

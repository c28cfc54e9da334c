import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';

const api = useTestApi({ events: true });

const listed = async (client: Client, status: string) => {
  const { leads, totalCount } = (await client.get(`/v1/leads?status=${status}`)).body as { leads: { id: string }[]; totalCount: number };
  return { ids: leads.map((lead) => lead.id), totalCount };
};
const activitiesOf = async (client: Client, leadId: string) =>
  ((await client.get(`/v1/leads/${leadId}/activities`)).body.activities as { event: string; data: string }[]).map(({ event, data }) => [event, data]);
const leadEvents = async (client: Client) => {
  await api.eventsCaughtUp();
  return ((await client.get('/v1/events?limit=100')).body.events as { type: string; data: { id: string; status: string } }[]).map(({ type, data }) => [type, data.id, data.status]);
};

describe('a lead written with its status in one call', () => {
  it('POST /v1/leads with status WON lists and counts the lead under WON only, its LEAD_CREATED and lead.created saying so', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: 'Ava Chen', email: 'ava@example.com', status: 'WON' });
    expect([res.status, res.body.lead.status]).toEqual([201, 'WON']);
    const { id } = res.body.lead;
    expect(await listed(client, 'WON')).toEqual({ ids: [id], totalCount: 1 });
    expect(await listed(client, 'NEW')).toEqual({ ids: [], totalCount: 0 });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
    expect((await client.get('/v1/organization')).body.organization.counts.leads).toBe(1);
    expect(await activitiesOf(client, id)).toEqual([['LEAD_CREATED', 'Lead Ava Chen created as WON']]);
    expect(await leadEvents(client)).toEqual([['lead.created', id, 'WON']]);
    // Moved on by a PATCH, it leaves the WON list and count as any lead does.
    await client.patch(`/v1/leads/${id}`, { status: 'LOST' });
    expect(await listed(client, 'WON')).toEqual({ ids: [], totalCount: 0 });
    expect(await listed(client, 'LOST')).toEqual({ ids: [id], totalCount: 1 });
  });

  it('POST /v1/leads without status creates a NEW lead, as before', async () => {
    const { client } = await api.organization();
    const { id } = (await client.post('/v1/leads', { name: 'Ava Chen', email: 'ava@example.com' })).body.lead;
    expect(await listed(client, 'NEW')).toEqual({ ids: [id], totalCount: 1 });
    expect(await activitiesOf(client, id)).toEqual([['LEAD_CREATED', 'Lead Ava Chen created']]);
  });

  it('POST /v1/leads/upsert changing the status of an existing lead moves it between lists, as a PATCH does', async () => {
    const { client } = await api.organization();
    const { id } = (await client.post('/v1/leads', { name: 'Ava Chen', email: 'ava@example.com' })).body.lead;
    const res = await client.post('/v1/leads/upsert', { match: 'email', email: 'AVA@example.com', status: 'QUOTED', suburb: 'Newtown' });
    expect([res.status, res.body.created, res.body.lead.id, res.body.lead.status]).toEqual([200, false, id, 'QUOTED']);
    expect(await listed(client, 'QUOTED')).toEqual({ ids: [id], totalCount: 1 });
    expect(await listed(client, 'NEW')).toEqual({ ids: [], totalCount: 0 });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
    expect((await activitiesOf(client, id))[0]).toEqual(['STATUS_CHANGED', 'Status changed from NEW to QUOTED']);
    expect(await leadEvents(client)).toEqual([
      ['lead.updated', id, 'QUOTED'],
      ['lead.created', id, 'NEW'],
    ]);
  });

  it('POST /v1/leads/upsert creating a lead gives it the status, and the same status again records no change', async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/leads/upsert', { match: 'phone', phone: '0412 000 222', name: 'Ava Chen', status: 'CONTACTED' });
    expect([created.status, created.body.created, created.body.lead.status]).toEqual([201, true, 'CONTACTED']);
    const { id } = created.body.lead;
    expect(await listed(client, 'CONTACTED')).toEqual({ ids: [id], totalCount: 1 });
    const again = await client.post('/v1/leads/upsert', { match: 'phone', phone: '+61412000222', status: 'CONTACTED' });
    expect([again.status, again.body.lead.id]).toEqual([200, id]);
    expect((await activitiesOf(client, id)).map(([event]) => event)).toEqual(['LEAD_CREATED']);
    expect(await listed(client, 'CONTACTED')).toEqual({ ids: [id], totalCount: 1 });
  });

  it.each([
    ['POST /v1/leads', '/v1/leads', { name: 'Ava Chen', email: 'ava@example.com', status: 'ARCHIVED' }],
    ['POST /v1/leads/upsert', '/v1/leads/upsert', { match: 'email', name: 'Ava Chen', email: 'ava@example.com', status: 'won' }],
  ])('%s answers 400 naming status for a status not in the enum, and writes nothing', async (_, path, body) => {
    const { client } = await api.organization();
    const res = await client.post(path, body);
    expect([res.status, res.body.error.details[0].path]).toEqual([400, 'status']);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

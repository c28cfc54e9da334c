import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { created, ISO_MS } from '../../test/support/fixtures';
import { idBlocks, useIdBlocks } from '#shared/store/sequences';

const api = useTestApi({ events: true });
const UNKNOWN_LEAD = 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ';

const createLead = (client: Client) => created<{ id: string }>(client, '/v1/leads', 'lead', { name: 'Sam Lee', email: 'sam@example.com' });

describe('POST /v1/leads/{leadId}/activities', () => {
  it('adds a note to the lead’s timeline as NOTE_ADDED, listed newest first with its other activities', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const res = await client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: '  Prefers a call after 3pm.  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ activity: { id: 2, event: 'NOTE_ADDED', data: 'Prefers a call after 3pm.', referenceId: null, userId: null, leadId: lead.id, createdAt: expect.stringMatching(ISO_MS), updatedAt: res.body.activity.createdAt } });
    const listed = (await client.get(`/v1/leads/${lead.id}/activities`)).body;
    expect(listed.totalCount).toBe(2);
    expect(listed.activities.map((activity: { event: string }) => activity.event)).toEqual(['NOTE_ADDED', 'LEAD_CREATED']);
    expect(listed.activities[0]).toEqual(res.body.activity);
  });

  it('costs one transaction, its id taken from the block of activity ids the lead’s create reserved in this container', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const calls = await countDynamoCalls(() => client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: 'Gate code 4412' }));
    expect(calls).toEqual(['TransactWriteItemsCommand']);
  });

  it('reserves a block of activity ids first when the container has none for the organization', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    useIdBlocks(idBlocks());
    const calls = await countDynamoCalls(() => client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: 'Gate code 4412' }));
    expect(calls).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
  });

  it('records a note once when it is retried with the same Idempotency-Key', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const send = () => client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: 'Sent twice' }, { headers: { 'idempotency-key': 'note-once-1' } });
    const first = await send();
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await client.get(`/v1/leads/${lead.id}/activities`)).body.totalCount).toBe(2);
  });

  it('emits lead.note_added with the activity', async () => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const { activity } = (await client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: 'Quoted $450' })).body;
    await api.eventsCaughtUp();
    const { events } = (await client.get('/v1/events?type=lead.note_added')).body;
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual(activity);
    // The activities the API records itself emit nothing of their own.
    const types = (await client.get('/v1/events?limit=100')).body.events.map((event: { type: string }) => event.type);
    expect(types.sort()).toEqual(['lead.created', 'lead.note_added']);
  });

  it('answers 404 for an unknown lead, a deleted one and another organization’s, and records nothing', async () => {
    const owner = await api.organization();
    const other = await api.organization();
    const lead = await createLead(owner.client);
    expect((await owner.client.post(`/v1/leads/${UNKNOWN_LEAD}/activities`, { event: 'NOTE', data: 'x' })).status).toBe(404);
    const foreign = await other.client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: 'x' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Lead not found');
    expect((await owner.client.get(`/v1/leads/${lead.id}/activities`)).body.totalCount).toBe(1);
    await owner.client.delete(`/v1/leads/${lead.id}`);
    expect((await owner.client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: 'x' })).status).toBe(404);
    expect((await owner.client.get(`/v1/leads/${lead.id}/activities`)).status).toBe(404);
  });

  it.each([
    ['another event', { event: 'STATUS_CHANGED', data: 'x' }, 'event'],
    ['no event', { data: 'x' }, 'event'],
    ['no data', { event: 'NOTE' }, 'data'],
    ['blank data', { event: 'NOTE', data: '   ' }, 'data'],
    ['data with a control character', { event: 'NOTE', data: 'a\u0000b' }, 'data'],
    ['data too long', { event: 'NOTE', data: 'x'.repeat(5001) }, 'data'],
    ['an unknown field', { event: 'NOTE', data: 'x', userId: 'user_01HZZZZZZZZZZZZZZZZZZZZZZZ' }, 'userId'],
  ])('answers 400 naming the field for %s, and records nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const lead = await createLead(client);
    const res = await client.post(`/v1/leads/${lead.id}/activities`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect(res.body.message).toContain(field);
    expect((await client.get(`/v1/leads/${lead.id}/activities`)).body.totalCount).toBe(1);
  });
});

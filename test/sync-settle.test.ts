import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { LEAD_CHANGES, leadKeys } from '../functions/leads/entity';
import { encodeCursor } from '#shared/store/cursors';
import { changeLogKey } from '#shared/store/keys';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi, type Client } from './support/api';
import { sleep } from './support/fixtures';

/**
 * Sync answers a change only once it has settled (SYNC_SETTLE_SECONDS): `updatedAt` is stamped before its write
 * commits, so a change stamped before another can become visible after it, and a cursor already past it would leave it
 * behind for good. This file's server settles SETTLE_SECONDS; every other file's answers at once.
 */
const SETTLE_SECONDS = 3;
vi.hoisted(() => {
  process.env.SYNC_SETTLE_SECONDS = '3';
});

const api = useTestApi();
const q = encodeURIComponent;

/** Waits until `time` is SETTLE_SECONDS old, and a little more. */
const settled = (time: string) => sleep(Math.max(0, Date.parse(time) + SETTLE_SECONDS * 1000 + 200 - Date.now()));

interface Poller {
  since: string;
  cursor: string | null;
  seen: string[];
}

/** One poll as the README's poller makes it: every page from its place, following nextCursor, until a page is empty. */
async function poll(client: Client, poller: Poller): Promise<void> {
  for (;;) {
    const res = await client.get(`/v1/leads?updatedSince=${q(poller.since)}&limit=10${poller.cursor ? `&cursor=${q(poller.cursor)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    poller.seen.push(...res.body.leads.map((lead: { id: string }) => lead.id));
    if (res.body.nextCursor) poller.cursor = res.body.nextCursor;
    if (res.body.leads.length === 0) return;
  }
}

describe('GET /v1/leads?updatedSince=… with changes still settling', () => {
  it('answers a change once it is SYNC_SETTLE_SECONDS old, counting none before', async () => {
    const { client } = await api.organization();
    const since = new Date(Date.now() - 1000).toISOString();
    const lead = (await client.post('/v1/leads', { name: 'Ann Settling', email: 'ann@settle.example.com' })).body.lead;
    const early = await client.get(`/v1/leads?updatedSince=${q(since)}`);
    expect([early.status, early.body.leads, early.body.totalCount, early.body.nextCursor]).toEqual([200, [], 0, null]);
    // updatedSince later than the settled changes' end reads nothing and is no error.
    const ahead = await client.get(`/v1/leads?updatedSince=${q(lead.updatedAt)}`);
    expect([ahead.status, ahead.body.leads, ahead.body.totalCount]).toEqual([200, [], 0]);
    await settled(lead.updatedAt);
    const later = await client.get(`/v1/leads?updatedSince=${q(since)}`);
    expect([later.body.leads.map((found: { id: string }) => found.id), later.body.totalCount]).toEqual([[lead.id], 1]);
  });

  it('answers a lead’s activities the same way: a note is synced once it has settled', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Dee Noted', email: 'dee@settle.example.com' })).body.lead;
    await settled(lead.updatedAt);
    const since = new Date().toISOString();
    const note = await client.post(`/v1/leads/${lead.id}/activities`, { event: 'NOTE', data: 'Call back after 3pm.' });
    expect(note.status).toBe(201);
    const early = await client.get(`/v1/leads/${lead.id}/activities?updatedSince=${q(since)}`);
    expect([early.status, early.body.activities, early.body.totalCount]).toEqual([200, [], 0]);
    await settled(since);
    const later = await client.get(`/v1/leads/${lead.id}/activities?updatedSince=${q(since)}`);
    expect(later.body.activities.map((activity: { event: string }) => activity.event)).toEqual(['NOTE_ADDED']);
  });

  it('answers the logs written after the fact the same way: an audit entry is synced once it has settled', async () => {
    const { client } = await api.organization();
    const faq = (await client.post('/v1/faqs', { question: 'Do you work weekends?', answer: 'Saturdays, 8 to 12.' })).body.faq;
    const since = new Date().toISOString();
    expect((await client.delete(`/v1/faqs/${faq.id}`)).status).toBe(200);
    const early = await client.get(`/v1/audit-log?updatedSince=${q(since)}`);
    expect([early.status, early.body.entries, early.body.totalCount]).toEqual([200, [], 0]);
    await settled(new Date().toISOString());
    const later = await client.get(`/v1/audit-log?updatedSince=${q(since)}`);
    expect(later.body.entries.map((entry: { action: string; resourceId: unknown }) => [entry.action, entry.resourceId])).toEqual([['deleted', String(faq.id)]]);
  });

  it('keeps a cursor whose position has not settled yet (given a moment ago, or by a clock a little ahead) in its place', async () => {
    const { client, organizationId } = await api.organization();
    const since = new Date(Date.now() - 60_000).toISOString();
    const lead = (await client.post('/v1/leads', { name: 'Eve Ahead', email: 'eve@settle.example.com' })).body.lead;
    const partition = changeLogKey(organizationId, LEAD_CHANGES).gsi6pk;
    const ahead = await encodeCursor({ index: 'gsi6', pk: partition, skBetween: [since, '~'], ascending: true }, { ...leadKeys.lead(organizationId, lead.id), gsi6pk: partition, updatedAt: lead.updatedAt });
    const res = await client.get(`/v1/leads?updatedSince=${q(since)}&cursor=${q(ahead)}`);
    expect([res.status, res.body.leads, res.body.totalCount, res.body.nextCursor]).toEqual([200, [], 0, ahead]);
    await settled(lead.updatedAt);
    const later = await client.get(`/v1/leads?updatedSince=${q(since)}&cursor=${q(ahead)}`);
    expect([later.status, later.body.leads]).toEqual([200, []]);
  });

  it('leaves no change behind the cursor when it commits after a change stamped later', async () => {
    const { client, organizationId } = await api.organization();
    const poller: Poller = { since: new Date(Date.now() - 1000).toISOString(), cursor: null, seen: [] };
    const first = (await client.post('/v1/leads', { name: 'Bob First', email: 'bob@settle.example.com' })).body.lead;
    // The poller comes by while Bob's create is settling ...
    await poll(client, poller);
    // ... and a create stamped a moment before Bob's commits after it (a transaction retried with its stamp).
    const late = (await client.post('/v1/leads', { name: 'Cat Late', email: 'cat@settle.example.com' })).body.lead;
    const stampedBefore = new Date(Date.parse(first.updatedAt) - 1).toISOString();
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, late.id), UpdateExpression: 'SET updatedAt = :at', ExpressionAttributeValues: { ':at': stampedBefore } }));
    await settled(first.updatedAt);
    await poll(client, poller);
    expect(poller.seen).toEqual([late.id, first.id]);
  });
});

describe('SYNC_SETTLE_SECONDS', () => {
  /** The settling time as the change log reads it, once, at load, under `value` (unset when undefined). */
  async function settleMsWith(value: string | undefined): Promise<number> {
    const before = process.env.SYNC_SETTLE_SECONDS;
    if (value === undefined) delete process.env.SYNC_SETTLE_SECONDS;
    else process.env.SYNC_SETTLE_SECONDS = value;
    try {
      vi.resetModules();
      return (await import('#shared/store/change-log')).SYNC_SETTLE_MS;
    } finally {
      process.env.SYNC_SETTLE_SECONDS = before;
      vi.resetModules();
    }
  }

  it('is 20 s deployed, where the stack sets none, and takes 0 or more seconds', async () => {
    expect(await settleMsWith(undefined)).toBe(20_000);
    expect(await settleMsWith('0')).toBe(0);
    expect(await settleMsWith('2.5')).toBe(2_500);
  });

  it.each(['soon', '-1', '', ' '])('stops the function at load for %j', async (value) => {
    await expect(settleMsWith(value)).rejects.toThrow(/SYNC_SETTLE_SECONDS/);
  });
});

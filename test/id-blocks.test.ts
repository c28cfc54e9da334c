import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { keys } from '#shared/store/keys';
import { idBlocks, reserveIds, useIdBlocks, type IdBlocks } from '#shared/store/sequences';
import { ACTIVITY_SEQUENCE } from '../functions/leads/store';
import { useTestApi, type Client } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';
import { created } from './support/fixtures';

const api = useTestApi();
const BLOCK = ACTIVITY_SEQUENCE.blockSize;

interface Activity {
  id: number;
  event: string;
  data: string;
}

/** Every request from here on is served by `container`'s blocks, as if the function's container were that one. */
function servedBy(container: IdBlocks) {
  useIdBlocks(container);
}

/** Waits for the clock's next millisecond, so activities recorded one after the other never share a time. */
async function nextMillisecond() {
  const now = Date.now();
  while (Date.now() === now) await new Promise((resolve) => setTimeout(resolve, 1));
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const newLead = (client: Client, i: number) => created<{ id: string }>(client, '/v1/leads', 'lead', { name: `Block Lead${i}`, email: `block${i}@example.com` });
const addNote = (client: Client, leadId: string, data: string) => created<Activity>(client, `/v1/leads/${leadId}/activities`, 'activity', { event: 'NOTE', data });
const timeline = async (client: Client, leadId: string, query = 'limit=100'): Promise<Activity[]> => {
  const res = await client.get(`/v1/leads/${leadId}/activities?${query}`);
  expect(res.status).toBe(200);
  return res.body.activities;
};
const sequenceValue = async (organizationId: string) =>
  (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.sequence(organizationId, ACTIVITY_SEQUENCE.kind), ConsistentRead: true }))).Item?.value;

// Every test starts as a freshly started container: no blocks yet.
beforeEach(() => servedBy(idBlocks()));

describe('activity ids taken from blocks per container', () => {
  it(`reserves one block of ${BLOCK} ids per UpdateItem, shared by the creates running at once in the container`, async () => {
    const { client } = await api.organization();
    const leads: { id: string }[] = [];
    // 7 at a time, so a round runs across each block's end (50, 100) with takes waiting on one reservation.
    const calls = await countDynamoCalls(async () => {
      leads.push(...(await Promise.all(range(1, 7).map((i) => newLead(client, i)))));
      for (let round = 1; round <= 17; round++) await Promise.all(leads.map((lead) => addNote(client, lead.id, `Round ${round}`)));
    });
    // 7 LEAD_CREATED and 119 NOTE_ADDED activities: ids 1 to 126, three blocks (1–50, 51–100, 101–150).
    expect(calls.filter((call) => call === 'TransactWriteItemsCommand')).toHaveLength(126);
    expect(calls.filter((call) => call === 'UpdateItemCommand')).toHaveLength(3);
    const ids = (await Promise.all(leads.map((lead) => timeline(client, lead.id)))).flat().map((activity) => activity.id);
    expect(ids.sort((a, b) => a - b)).toEqual(range(1, 126));
  });

  it('gives two containers disjoint blocks, so ids taken at once in both are never the same', async () => {
    const { organizationId } = await api.organization();
    let reservations = 0;
    const counting: typeof reserveIds = (...args) => (reservations++, reserveIds(...args));
    const [a, b] = [idBlocks(counting), idBlocks(counting)];
    const takes = range(1, 130).flatMap(() => [a.take(organizationId, ACTIVITY_SEQUENCE), b.take(organizationId, ACTIVITY_SEQUENCE)]);
    const ids = await Promise.all(takes);
    const [ofA, ofB] = [ids.filter((_, i) => i % 2 === 0), ids.filter((_, i) => i % 2 === 1)];
    expect(new Set(ids).size).toBe(260);
    // Each container takes whole blocks of its own: 130 ids are three blocks each, and no block is both's.
    const blocksOf = (taken: number[]) => new Set(taken.map((id) => Math.floor((id - 1) / BLOCK)));
    expect(blocksOf(ofA).size).toBe(3);
    expect(blocksOf(ofB).size).toBe(3);
    expect([...blocksOf(ofA)].filter((block) => blocksOf(ofB).has(block))).toEqual([]);
    expect(reservations).toBe(6);
    expect([...ids].sort((x, y) => x - y).at(-1)).toBeLessThanOrEqual(6 * BLOCK);
    expect(await sequenceValue(organizationId)).toBe(6 * BLOCK);
    // Within a container, ids are handed out in the order they were asked for.
    expect(ofA).toEqual([...ofA].sort((x, y) => x - y));
  });

  it('lists a lead’s timeline newest first by time when two containers’ activities interleave', async () => {
    const { client } = await api.organization();
    const [a, b] = [idBlocks(), idBlocks()];
    servedBy(a);
    const lead = await newLead(client, 1);
    servedBy(b);
    await nextMillisecond();
    await addNote(client, lead.id, 'from B, first');
    servedBy(a);
    await nextMillisecond();
    await addNote(client, lead.id, 'from A, second');
    servedBy(b);
    await nextMillisecond();
    await addNote(client, lead.id, 'from B, third');
    servedBy(a);
    await nextMillisecond();
    expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' })).status).toBe(200);
    const expected = [
      { id: 3, data: 'Status changed from NEW to CONTACTED' },
      { id: BLOCK + 2, data: 'from B, third' },
      { id: 2, data: 'from A, second' },
      { id: BLOCK + 1, data: 'from B, first' },
      { id: 1, data: 'Lead Block Lead1 created' },
    ];
    const listed = await timeline(client, lead.id);
    expect(listed.map(({ id, data }) => ({ id, data }))).toEqual(expected);
    // Walked by cursor two at a time, and by page number: the same order.
    const walked: Activity[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { activities: Activity[]; nextCursor: string | null } } = await client.get(`/v1/leads/${lead.id}/activities?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      walked.push(...res.body.activities);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(walked.map((activity) => activity.id)).toEqual(expected.map((activity) => activity.id));
    expect((await timeline(client, lead.id, 'page=2&limit=2')).map((activity) => activity.id)).toEqual([2, BLOCK + 1]);
    // The change log lists them oldest first.
    expect((await timeline(client, lead.id, 'updatedSince=2000-01-01T00:00:00.000Z&limit=100')).map((activity) => activity.id)).toEqual(expected.map((activity) => activity.id).reverse());
  });

  it('leaves a gap, never a duplicate, when a container ends in the middle of its block', async () => {
    const { client, organizationId } = await api.organization();
    const lead = await newLead(client, 1);
    await addNote(client, lead.id, 'second');
    await addNote(client, lead.id, 'third');
    // The container ends with 47 of its ids unused; the next one starts with none.
    servedBy(idBlocks());
    await addNote(client, lead.id, 'fourth');
    await addNote(client, lead.id, 'fifth');
    servedBy(idBlocks());
    await addNote(client, lead.id, 'sixth');
    const ids = (await timeline(client, lead.id)).map((activity) => activity.id);
    expect(ids).toEqual([2 * BLOCK + 1, BLOCK + 2, BLOCK + 1, 3, 2, 1]);
    expect(await sequenceValue(organizationId)).toBe(3 * BLOCK);
  });

  it('fails the takes waiting on a reservation that failed, and reserves again on the next take', async () => {
    const { organizationId } = await api.organization();
    let failures = 1;
    const container = idBlocks(async (...args) => {
      if (failures-- > 0) throw new Error('ProvisionedThroughputExceededException');
      return reserveIds(...args);
    });
    const waiting = await Promise.allSettled(range(1, 3).map(() => container.take(organizationId, ACTIVITY_SEQUENCE)));
    expect(waiting.map((take) => take.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await Promise.all(range(1, 3).map(() => container.take(organizationId, ACTIVITY_SEQUENCE)))).toEqual([1, 2, 3]);
  });
});

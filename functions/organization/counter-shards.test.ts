import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { keys } from '#shared/store/keys';
import { leadCounterNames } from '../leads/entity';
import { raiseOrganizationCounterShards } from './counter-shards';
import { useTestApi } from '../../test/support/api';
import { measureDynamoCalls } from '../../test/support/dynamo-calls';

const api = useTestApi();

/** What each shard item of a counter holds (absent shards as undefined). */
async function shardCounts(organizationId: string, name: string, shards: number): Promise<(number | undefined)[]> {
  return Promise.all(
    Array.from({ length: shards }, async (_, shard) => {
      const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.counterShard(organizationId, name, shard), ConsistentRead: true }));
      return Item === undefined ? undefined : Number(Item.count);
    }),
  );
}

async function shardedOrganization(shards: number) {
  const org = await api.organization();
  await raiseOrganizationCounterShards(org.organizationId, shards);
  return org;
}

/** The keys of the items each TransactWriteItems sent through the shared client wrote (Put, Update, Delete). */
const transactionKeys: Array<{ pk: string; sk: string }[]> = [];
dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    const input = args.input as { TransactItems?: Record<string, { Key?: Record<string, string>; Item?: Record<string, string> }>[] };
    if (context.commandName === 'TransactWriteItemsCommand') {
      transactionKeys.push(
        (input.TransactItems ?? []).flatMap((item) => (item.ConditionCheck ? [] : Object.values(item).map((write) => ({ pk: (write.Key ?? write.Item)!.pk!, sk: (write.Key ?? write.Item)!.sk! })))),
      );
    }
    return next(args);
  },
  { step: 'initialize', name: 'transactionKeysOfTest' },
);

describe('counter shards, an organization setting for tenants that create at high rates', () => {
  it('leaves a lead create one item in the organization’s partition, the lead (and a list counter on shard 0): claims, names, activity and its counter sit elsewhere', async () => {
    const { client, organizationId } = await shardedOrganization(8);
    await client.post('/v1/leads', { name: 'Warm Block', email: 'warm@example.com' });
    for (let i = 0; i < 6; i++) {
      transactionKeys.length = 0;
      const created = await client.post('/v1/leads', { name: `Spread ${i} Out`, email: `spread${i}@example.com`, phone: `+6141255500${i}` });
      expect(created.status).toBe(201);
      const [written] = transactionKeys;
      // The lead, its activity, its activity counter, two claims, two name items, two list counters.
      expect(written).toHaveLength(9);
      const inOrganization = written!.filter((key) => key.pk === `ORG#${organizationId}`).map((key) => key.sk);
      expect(inOrganization.filter((sk) => !/^COUNT#LEADS(#STATUS#NEW)?$/.test(sk))).toEqual([`LEAD#${created.body.lead.id}`]);
    }
  });

  it('spreads concurrent creates over the shards and answers exact totals from their sum', async () => {
    const { client, organizationId } = await shardedOrganization(4);
    const created = await Promise.all(Array.from({ length: 24 }, (_, i) => client.post('/v1/leads', { name: `Busy ${i} Caller`, email: `busy${i}@example.com` })));
    expect(created.map((res) => res.status)).toEqual(Array(24).fill(201));
    const shards = await shardCounts(organizationId, leadCounterNames.leads(), 4);
    expect(shards.filter((count) => count !== undefined).length).toBeGreaterThan(1);
    expect(shards.reduce((sum: number, count) => sum + (count ?? 0), 0)).toBe(24);
    expect((await client.get('/v1/leads?limit=5')).body).toMatchObject({ totalCount: 24, totalPages: 5 });
    expect((await client.get('/v1/leads?status=NEW')).body.totalCount).toBe(24);
    expect((await client.get('/v1/organization')).body.organization.counts.leads).toBe(24);
  });

  it('keeps every filtered total right through status changes, deletes and inquiries', async () => {
    const { client } = await shardedOrganization(3);
    const leads = await Promise.all(Array.from({ length: 6 }, async (_, i) => (await client.post('/v1/leads', { name: `Lead ${i} Moved`, email: `moved${i}@example.com`, phone: `+6141200000${i}` })).body.lead));
    await client.patch(`/v1/leads/${leads[0].id}`, { status: 'CONTACTED' });
    await client.delete(`/v1/leads/${leads[1].id}`);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(5);
    expect((await client.get('/v1/leads?status=NEW')).body.totalCount).toBe(4);
    expect((await client.get('/v1/leads?status=CONTACTED')).body.totalCount).toBe(1);
    const email = { from: 'caller@example.com', to: 'office@example.com', subject: 'Quote', body: 'A quote please.', receivedAt: '2026-11-20T10:00:00.000Z' };
    const ingested = await Promise.all(Array.from({ length: 5 }, (_, i) => client.post('/v1/inquiries', { source: 'EMAIL', lead: { phone: leads[2 + (i % 4)].phone }, data: { ...email, subject: `Quote ${i}` } })));
    expect(ingested.map((res) => res.status)).toEqual(Array(5).fill(201));
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(5);
    expect((await client.get('/v1/inquiries?source=EMAIL')).body.totalCount).toBe(5);
    expect((await client.get('/v1/inquiries?source=CALL')).body.totalCount).toBe(0);
  });

  it('reads a list page 1 with two calls still, sent together: the Query and one BatchGetItem of the shards', async () => {
    const { client } = await shardedOrganization(8);
    await client.post('/v1/leads', { name: 'Only One', email: 'only@example.com' });
    const calls = await measureDynamoCalls(() => client.get('/v1/leads'));
    expect(calls.map((call) => call.command).sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    expect(calls[1]!.sentAt).toBeLessThan(calls[0]!.answeredAt);
  });

  it('only grows: fewer shards would drop what was counted in the others', async () => {
    const { organizationId } = await shardedOrganization(4);
    await expect(raiseOrganizationCounterShards(organizationId, 2)).rejects.toMatchObject({ status: 409 });
    await expect(raiseOrganizationCounterShards(organizationId, 6)).resolves.toBeUndefined();
  });

  it('leaves an organization without the setting on single counter items', async () => {
    const { client, organizationId } = await api.organization();
    await Promise.all(Array.from({ length: 5 }, (_, i) => client.post('/v1/leads', { name: `Plain ${i} Lead`, email: `plain${i}@example.com` })));
    expect(await shardCounts(organizationId, leadCounterNames.leads(), 3)).toEqual([5, undefined, undefined]);
  });
});

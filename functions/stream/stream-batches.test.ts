import { randomUUID } from 'node:crypto';
import { BatchWriteItemCommand, DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { handler as recordStreamBatch } from './record';
import { RECORD_BUDGET_MS } from './in-order';
import { leadKeys } from '../leads/entity';
import { createTable, localClient } from '../../infra/local/dynamodb-local';
import type { LocalDeliveryQueue } from '../webhooks/queue';
import { laneOf, startTableStream } from '../../infra/local/table-stream';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { deliveryQueue, type DeliveryJob } from '../webhooks/queue';
import { useTestApi, type Client } from '../../test/support/api';
import { insertRecordOf } from '../../test/support/stream-records';
import { startReceiver, type Receiver } from '../../test/support/receiver';
import { automationEffects } from '../automations/triggers/on-events';
import type { Event } from '../events/schema';

// The stream consumer runs as `npm start` runs it: DynamoDB Local's stream read in process, the same handler Lambda runs.
const api = useTestApi({ events: true });
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function subscribedOrganization() {
  const organization = await api.organization();
  const hook = await startReceiver();
  receivers.push(hook);
  const res = await organization.client.post('/v1/webhooks', { url: hook.url, events: ['lead.created'] });
  expect(res.status).toBe(201);
  return { ...organization, hook, webhookId: res.body.webhook.id as string };
}

const createLead = async (client: Client, email: string) => {
  const res = await client.post('/v1/leads', { name: `Lead ${email.split('@')[0]}`, email });
  expect(res.status).toBe(201);
  return res.body.lead as { id: string; email: string };
};

/** The emails of the lead.created events in each call to the delivery queue, in order. */
const emailsOf = (jobs: DeliveryJob[]) => jobs.map((job) => String(job.event.data.email));
const receivedEmails = (hook: Receiver) => hook.received.map((delivery) => JSON.parse(delivery.body).data.email as string).sort();

/** The INSERT records of these leads as Lambda would hand them again: their items as they are now, with new sequence numbers. */
let sequence = 800_000_000_000_000_000_000n;
const replayedRecords = (organizationId: string, leads: { id: string }[]) =>
  Promise.all(
    leads.map(async (lead) => {
      const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, lead.id) }));
      const sequenceNumber = String(++sequence);
      return insertRecordOf(Item!, sequenceNumber, `replay-${sequenceNumber}`);
    }),
  );

/**
 * The commands `action` sent through the shared DynamoDB client that name this organization (other work of the process
 * aside), and how many of them were in flight at once at most.
 */
async function commandsOf(organizationId: string, action: () => Promise<unknown>): Promise<{ name: string; input: any }[] & { mostInFlight: number }> {
  const send = dynamo.send.bind(dynamo) as (command: any) => Promise<unknown>;
  const sent: { name: string; input: any }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const spy = vi.spyOn(dynamo, 'send').mockImplementation((async (command: any) => {
    if (!JSON.stringify(command.input).includes(organizationId)) return send(command);
    sent.push({ name: command.constructor.name, input: command.input });
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    try {
      return await send(command);
    } finally {
      inFlight--;
    }
  }) as never);
  try {
    await action();
    return Object.assign(sent, { mostInFlight });
  } finally {
    spy.mockRestore();
  }
}

describe('a stream batch in which one record fails', () => {
  it('queues every webhook once: the failed record is handed again with those after it, the records before it never', async () => {
    const { client, hook, webhookId } = await subscribedOrganization();
    const queue = deliveryQueue() as LocalDeliveryQueue;
    const send = queue.send.bind(queue);
    const calls: string[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let failed = false;
    const spy = vi.spyOn(queue, 'send').mockImplementation(async (jobs) => {
      calls.push(emailsOf(jobs));
      // The first lead's jobs wait until the next three leads have committed, so those three reach the consumer in one batch.
      if (calls.length === 1) await held;
      // The second of them fails once: the queue is unavailable for that one call.
      if (!failed && emailsOf(jobs).includes('second@example.com')) {
        failed = true;
        throw new Error('SQS unavailable');
      }
      return send(jobs);
    });
    try {
      await createLead(client, 'zeroth@example.com');
      // The consumer polls the stream: under a loaded machine that can take longer than waitFor's default second.
      await vi.waitFor(() => expect(calls).toHaveLength(1), { timeout: 20_000 });
      for (const email of ['first@example.com', 'second@example.com', 'third@example.com']) await createLead(client, email);
      release();
      await hook.waitFor(4);
      await api.eventsCaughtUp();
    } finally {
      spy.mockRestore();
    }

    // Each record's jobs were queued once, the failed one twice (its failure and its retry); nothing after it ran before the retry.
    expect(calls).toEqual([['zeroth@example.com'], ['first@example.com'], ['second@example.com'], ['second@example.com'], ['third@example.com']]);
    expect(receivedEmails(hook)).toEqual(['first@example.com', 'second@example.com', 'third@example.com', 'zeroth@example.com']);
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhookId}/deliveries`)).body.totalCount).toBe(4), { timeout: 20_000 });
    expect((await client.get('/v1/events?type=lead.created')).body.totalCount).toBe(4);
  });

  it('answers the failed record’s sequence number and leaves the records after it untouched, then takes them when handed again', async () => {
    const { client, organizationId } = await subscribedOrganization();
    const leads = [await createLead(client, 'one@example.com'), await createLead(client, 'two@example.com'), await createLead(client, 'three@example.com')];
    // The stream has handled these creates; the batch below is the same changes as Lambda would hand them again.
    await api.eventsCaughtUp();
    const records = await replayedRecords(organizationId, leads);
    const sequenceOf = (index: number) => records[index]!.dynamodb!.SequenceNumber!;
    const queue = deliveryQueue() as LocalDeliveryQueue;
    const calls: string[][] = [];
    const spy = vi.spyOn(queue, 'send').mockImplementation(async (jobs) => {
      calls.push(emailsOf(jobs));
      if (calls.length === 2) throw new Error('SQS unavailable');
    });
    try {
      expect(await recordStreamBatch({ Records: records })).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(1) }] });
      expect(calls).toEqual([['one@example.com'], ['two@example.com']]);
      expect(await recordStreamBatch({ Records: records.slice(1) })).toEqual({ batchItemFailures: [] });
      expect(calls).toEqual([['one@example.com'], ['two@example.com'], ['two@example.com'], ['three@example.com']]);

      // Too little time left to start a record: none is started, and the first is answered to be handed again.
      const late = { getRemainingTimeInMillis: () => RECORD_BUDGET_MS - 1 };
      expect(await recordStreamBatch({ Records: records }, late)).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(0) }] });
      expect(calls).toHaveLength(4);
      expect(await recordStreamBatch({ Records: records }, { getRemainingTimeInMillis: () => RECORD_BUDGET_MS })).toEqual({ batchItemFailures: [] });
      expect(calls).toHaveLength(7);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a stream batch', () => {
  it('writes its events and audit entries together, a BatchWriteItem per 25 items in one round, not a round trip per record', async () => {
    const { client, organizationId } = await api.organization();
    const leads = [];
    for (let i = 0; i < 30; i++) leads.push(await createLead(client, `batch${i}@example.com`));
    await api.eventsCaughtUp();
    const records = await replayedRecords(organizationId, leads);
    let answer: unknown;
    const commands = await commandsOf(organizationId, async () => (answer = await recordStreamBatch({ Records: records })));
    expect(answer).toEqual({ batchItemFailures: [] });
    // 30 lead.created events and the 30 creates' audit entries: for each, a call of 25 and one of 5. Besides them, the
    // automations on lead.created and the webhook subscriptions, each read once for the batch.
    const written = commands.map(({ name, input }) => [name, Object.values(input.RequestItems ?? {}).flat().length]);
    expect(written.sort()).toEqual([['BatchWriteCommand', 25], ['BatchWriteCommand', 25], ['BatchWriteCommand', 5], ['BatchWriteCommand', 5], ['QueryCommand', 0], ['QueryCommand', 0]]);
    // The four in one round, each waiting on DynamoDB beside the others, and the automations read beside them.
    expect(commands.mostInFlight).toBe(5);
  });

  it('starts a run while its events and audit entries are being written, and queues its webhooks only once they are', async () => {
    const { client, organizationId } = await subscribedOrganization();
    const lead = await createLead(client, 'held@example.com');
    await api.eventsCaughtUp();
    // An automation on lead.created made after the lead: the lead's record handed again starts its run.
    const automation = await client.post('/v1/automations', { name: 'Welcome note', trigger: { event: 'lead.created' }, steps: [{ type: 'wait', duration: 'PT1H' }, { type: 'add_note', template: 'Welcomed' }] });
    expect(automation.status).toBe(201);
    const [record] = await replayedRecords(organizationId, [lead]);
    const seen: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const send = dynamo.send.bind(dynamo) as (command: any) => Promise<unknown>;
    const writes = vi.spyOn(dynamo, 'send').mockImplementation((async (command: any) => {
      const input = JSON.stringify(command.input);
      if (!input.includes(organizationId)) return send(command);
      if (command.constructor.name === 'BatchWriteCommand') {
        seen.push('logs sent');
        await held;
        seen.push('logs written');
      } else if (input.includes('#RUN#')) seen.push('run written');
      return send(command);
    }) as never);
    const queue = deliveryQueue() as LocalDeliveryQueue;
    const queueSend = queue.send.bind(queue);
    const queued = vi.spyOn(queue, 'send').mockImplementation(async (jobs) => {
      seen.push('webhooks queued');
      return queueSend(jobs);
    });
    try {
      const answer = recordStreamBatch({ Records: [record!] });
      await vi.waitFor(() => expect(seen).toContain('run written'), { timeout: 20_000 });
      expect(seen).not.toContain('webhooks queued');
      release();
      expect(await answer).toEqual({ batchItemFailures: [] });
    } finally {
      release();
      writes.mockRestore();
      queued.mockRestore();
    }
    expect(seen.slice(seen.indexOf('logs written'))).toContain('webhooks queued');
    expect(seen.indexOf('webhooks queued')).toBeGreaterThan(seen.lastIndexOf('logs written'));
    expect((await client.get(`/v1/automations/${automation.body.automation.id}/runs`)).body.totalCount).toBe(1);
  });

  it('hands the batch again from its first record when its events or audit entries cannot be written, its webhooks unqueued', async () => {
    const { client, organizationId } = await subscribedOrganization();
    const leads = [await createLead(client, 'unlogged1@example.com'), await createLead(client, 'unlogged2@example.com')];
    await api.eventsCaughtUp();
    const records = await replayedRecords(organizationId, leads);
    const send = dynamo.send.bind(dynamo) as (command: any) => Promise<unknown>;
    const writes = vi.spyOn(dynamo, 'send').mockImplementation((async (command: any) => {
      if (command.constructor.name === 'BatchWriteCommand' && JSON.stringify(command.input).includes(organizationId)) throw new Error('DynamoDB unavailable');
      return send(command);
    }) as never);
    const queue = deliveryQueue() as LocalDeliveryQueue;
    const queued = vi.spyOn(queue, 'send');
    try {
      expect(await recordStreamBatch({ Records: records })).toEqual({ batchItemFailures: [{ itemIdentifier: records[0]!.dynamodb!.SequenceNumber }] });
      expect(queued.mock.calls.filter(([jobs]) => JSON.stringify(jobs).includes(organizationId))).toEqual([]);
    } finally {
      writes.mockRestore();
      queued.mockRestore();
    }
  });
});

describe('a change an automation run wrote', () => {
  it('costs no read of the run when none of its events would start one: no automation on its trigger, or none whose filter matches', async () => {
    // The inquiry a run's text opened: an automation on inquiry.created for calls only does not start on it.
    const event = { id: 'evt_01M8BX0000000000000000000A', type: 'inquiry.created', organizationId: 'org_unread', occurredAt: new Date().toISOString(), data: { id: 'inq_1', leadId: 'lead_1', source: 'SMS' } } as Event;
    expect([...(await commandsOf('org_unread', () => automationEffects([event], { enabled: async () => [], byRunId: 'run_1' })))]).toEqual([]);
    const callsOnly = async () => [{ automationId: 'automation_1', version: 1, filter: { source: 'CALL' } }];
    expect([...(await commandsOf('org_unread', () => automationEffects([event], { enabled: callsOnly, byRunId: 'run_1' })))]).toEqual([]);
    // An automation for texts does start on it, and the run that wrote the change is read for the chain it continues.
    const texts = async () => [{ automationId: 'automation_1', version: 1, filter: { source: 'SMS' } }];
    expect((await commandsOf('org_unread', () => automationEffects([event], { enabled: texts, byRunId: 'run_1' }).catch(() => undefined)))[0]?.name).toBe('GetCommand');
  });
});

describe('the local stream reader', () => {
  it('with a parallelization factor, hands other keys\' records while a batch of one key is held, and each key\'s records in order', async () => {
    const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB!;
    const tableName = `stream-lanes-${randomUUID()}`;
    await createTable(endpoint, tableName);
    const client = localClient(endpoint);
    const lane = (pk: string) => laneOf({ dynamodb: { Keys: { pk: { S: pk } } } }, 10);
    // Two partition keys Lambda would hand to different batches of the shard.
    const busy = 'organization-busy';
    const quiet = ['organization-quiet-1', 'organization-quiet-2', 'organization-quiet-3'].find((pk) => lane(pk) !== lane(busy))!;
    const handed: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stream = await startTableStream({
      endpoint,
      tableName,
      parallelization: 10,
      onError: () => undefined,
      handler: async ({ Records }: DynamoDBStreamEvent) => {
        const keys = Records.map((record) => `${record.dynamodb!.Keys!.pk!.S}:${record.dynamodb!.Keys!.sk!.S}`);
        handed.push(...keys);
        if (keys.some((key) => key.startsWith(busy))) await held;
        return { batchItemFailures: [] };
      },
    });
    try {
      const put = (pk: string, sk: string) => client.send(new PutItemCommand({ TableName: tableName, Item: marshall({ pk, sk }) }));
      for (const sk of ['1', '2', '3']) await put(busy, sk);
      stream.nudge();
      // The busy key's batch is in the handler, held there, when the quiet key's record and two more of the busy key's come.
      await vi.waitFor(() => expect(handed).toContain(`${busy}:1`), { timeout: 20_000 });
      await put(busy, '4');
      await put(quiet, '1');
      await put(busy, '5');
      stream.nudge();
      await vi.waitFor(() => expect(handed).toContain(`${quiet}:1`), { timeout: 20_000 });
      expect(handed).not.toContain(`${busy}:4`);
      release();
      await stream.caughtUp();
    } finally {
      release();
      await stream.stop();
      client.destroy();
    }
    expect(handed.filter((key) => key.startsWith(busy))).toEqual([1, 2, 3, 4, 5].map((sk) => `${busy}:${sk}`));
  });

  it('is caught up only once what its handler wrote has been read too: a pass that read nothing while the handler was still writing proves nothing', async () => {
    const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB!;
    const tableName = `stream-chain-${randomUUID()}`;
    await createTable(endpoint, tableName);
    const client = localClient(endpoint);
    const handed: string[] = [];
    const stream = await startTableStream({
      endpoint,
      tableName,
      minPollGapMs: 10,
      onError: () => undefined,
      handler: async ({ Records }: DynamoDBStreamEvent) => {
        for (const record of Records) {
          const pk = record.dynamodb!.Keys!.pk!.S!;
          handed.push(pk);
          // As the stream consumer disables a webhook when its expiry item goes: a write of its own, after passes that read nothing.
          if (pk === 'cause') {
            await new Promise((resolve) => setTimeout(resolve, 300));
            await client.send(new PutItemCommand({ TableName: tableName, Item: marshall({ pk: 'effect', sk: 'x' }) }));
          }
        }
        return { batchItemFailures: [] };
      },
    });
    try {
      await client.send(new PutItemCommand({ TableName: tableName, Item: marshall({ pk: 'cause', sk: 'x' }) }));
      await stream.caughtUp();
      expect(handed).toEqual(['cause', 'effect']);
    } finally {
      await stream.stop();
      client.destroy();
    }
  });

  it('with a worker\'s entities, hands only the changes of those items (a delete by its old image) and reads past the rest', async () => {
    const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB!;
    const tableName = `stream-filter-${randomUUID()}`;
    await createTable(endpoint, tableName);
    const client = localClient(endpoint);
    const handed: string[] = [];
    const stream = await startTableStream({
      endpoint,
      tableName,
      entities: ['LEAD', 'WEBHOOK_EXPIRY'],
      onError: () => undefined,
      handler: async ({ Records }: DynamoDBStreamEvent) => {
        handed.push(...Records.map((record) => `${record.eventName} ${record.dynamodb!.Keys!.pk!.S}`));
        return { batchItemFailures: [] };
      },
    });
    try {
      const put = (item: Record<string, string>) => client.send(new PutItemCommand({ TableName: tableName, Item: marshall({ sk: 'x', ...item }) }));
      await put({ pk: 'a-lead', entity: 'LEAD' });
      await put({ pk: 'a-counter' });
      await put({ pk: 'a-claim', entity: 'LEAD_CONTACT' });
      await put({ pk: 'an-expiry', entity: 'WEBHOOK_EXPIRY' });
      await put({ pk: 'a-lead', entity: 'LEAD', name: 'Renamed' });
      for (const pk of ['an-expiry', 'a-counter']) await client.send(new DeleteItemCommand({ TableName: tableName, Key: marshall({ pk, sk: 'x' }) }));
      await stream.caughtUp();
    } finally {
      await stream.stop();
      client.destroy();
    }
    expect(handed).toEqual(['INSERT a-lead', 'INSERT an-expiry', 'MODIFY a-lead', 'REMOVE an-expiry']);
  });

  it('hands a reported record again with the records after it, and never the records before it, as the event source mapping does', async () => {
    const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB!;
    const tableName = `stream-reader-${randomUUID()}`;
    await createTable(endpoint, tableName);
    const client = localClient(endpoint);
    const handed: string[][] = [];
    let failures = 0;
    const stream = await startTableStream({
      endpoint,
      tableName,
      onError: () => undefined,
      handler: async ({ Records }: DynamoDBStreamEvent) => {
        const ids = Records.map((record) => String(record.dynamodb!.Keys!.pk!.S));
        handed.push(ids);
        const second = Records.find((record) => record.dynamodb!.Keys!.pk!.S === 'item-2');
        if (second && failures++ === 0) return { batchItemFailures: [{ itemIdentifier: second.dynamodb!.SequenceNumber! }] };
        return { batchItemFailures: [] };
      },
    });
    try {
      // One write of three items: their records reach the reader together.
      await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: ['item-1', 'item-2', 'item-3'].map((pk) => ({ PutRequest: { Item: marshall({ pk, sk: 'x' }) } })) } }));
      await stream.caughtUp();
    } finally {
      await stream.stop();
      client.destroy();
    }
    const times = (id: string) => handed.flat().filter((candidate) => candidate === id).length;
    expect(times('item-1')).toBe(1);
    expect(times('item-2')).toBe(2);
    // The batch handed again starts at the reported record. The records may reach the reader over more than one
    // poll: the batch that reported item-2 is the first holding it, and item-3 comes twice exactly when it was there.
    const reported = handed.findIndex((batch) => batch.includes('item-2'));
    const again = handed.findIndex((batch, index) => index > reported && batch.includes('item-2'));
    expect(handed[again]![0]).toBe('item-2');
    expect(handed.slice(again).flat()).not.toContain('item-1');
    expect(times('item-3')).toBe(handed[reported]!.includes('item-3') ? 2 : 1);
  });
});

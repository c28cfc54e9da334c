import { randomUUID } from 'node:crypto';
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { handler as recordStreamBatch } from './record';
import { RECORD_BUDGET_MS } from './in-order';
import { leadKeys } from '../leads/entity';
import { createTable, localClient } from '../../infra/local/dynamodb-local';
import type { LocalDeliveryQueue } from '../webhooks/queue';
import { asLambdaRecord, startTableStream } from '../../infra/local/table-stream';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { deliveryQueue, type DeliveryJob } from '../webhooks/queue';
import { useTestApi, type Client } from '../../test/support/api';
import { startReceiver, type Receiver } from '../../test/support/receiver';

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
    let sequence = 800_000_000_000_000_000_000n;
    const records = await Promise.all(
      leads.map(async (lead) => {
        const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, lead.id) }));
        const sequenceNumber = String(++sequence);
        return asLambdaRecord({
          eventID: `replay-${sequenceNumber}`,
          eventName: 'INSERT',
          eventVersion: '1.1',
          eventSource: 'aws:dynamodb',
          awsRegion: 'ddblocal',
          dynamodb: { ApproximateCreationDateTime: new Date(), Keys: marshall({ pk: Item!.pk, sk: Item!.sk }), NewImage: marshall(Item!), SequenceNumber: sequenceNumber, SizeBytes: 512, StreamViewType: 'NEW_AND_OLD_IMAGES' },
        } as never);
      }),
    );
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

describe('the local stream reader', () => {
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

import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { leadKeys } from '../functions/leads/entity';
import { handler as recordStreamBatch } from '../functions/stream/record';
import { webhookKeys } from '../functions/webhooks/entity';
import type { WebhookDelivery } from '../functions/webhooks/schema';
import type { LocalDeliveryQueue } from '../infra/local/delivery-queue';
import { asLambdaRecord } from '../infra/local/table-stream';
import { config } from '../shared/config';
import { dynamo } from '../shared/dynamo';
import { deliveryQueue, type DeliveryJob } from '../shared/webhooks/queue';
import { useTestApi, type Client } from './support/api';
import { startReceiver, type Receiver } from './support/receiver';

/** How long to wait for the stream consumer and the delivery queue, which poll: long enough for a loaded machine. */
const WAIT = { timeout: 10_000 };

const api = useTestApi({ events: true });
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

async function subscribe(client: Client, url: string, events: string[] = ['*']) {
  const res = await client.post('/v1/webhooks', { url, events });
  expect(res.status).toBe(201);
  return res.body.webhook as { id: string; secret: string };
}

const q = encodeURIComponent;

describe('updatedSince on the events and deliveries logs', () => {
  // A poller that starts "from the beginning" with a time before 1970 gets every record, on the logs whose ids are
  // ULIDs of their time (which begin at the epoch) as on the other lists.
  it('answers a time before 1970 as every other list does (every record since), never 500', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const lead = (await client.post('/v1/leads', { name: 'Early Poller', email: 'early@example.com' })).body.lead;
    await hook.waitFor(1);
    await api.eventsCaughtUp();
    const since = q('1969-12-31T23:59:59.000Z');

    // The control: the leads list reads the same updatedSince as "everything".
    const leads = await client.get(`/v1/leads?updatedSince=${since}`);
    expect(leads.status).toBe(200);
    expect(leads.body.leads.map((l: { id: string }) => l.id)).toEqual([lead.id]);

    const events = await client.get(`/v1/events?type=lead.created&updatedSince=${since}`);
    expect(events.status).toBe(200);
    expect(events.body.events.map((event: { data: { id: string } }) => event.data.id)).toEqual([lead.id]);

    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.totalCount).toBe(1), WAIT);
    const deliveries = await client.get(`/v1/webhooks/${webhook.id}/deliveries?updatedSince=${since}`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.totalCount).toBe(1);
  });
});

describe('GET /v1/webhooks/{webhookId}/deliveries with updatedSince', () => {
  // README ("Syncing changes") and the updatedSince parameter's own description in GET /openapi: "Combined with
  // another filter of the list it answers 400 (but `type` on events and `expand` on inquiries)". A status filter
  // cannot be a sync log: a redelivery's record moves from PENDING to SUCCEEDED under an id a poller has passed.
  it.each([
    ['status=SUCCEEDED', 'status'],
    ['eventType=webhook.test', 'eventType'],
  ])('answers 400 naming updatedSince when combined with %s, as every other list does', async (filter, name) => {
    const { client } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url);
    expect((await client.post(`/v1/webhooks/${webhook.id}/test`)).body.attempt.status).toBe('SUCCEEDED');
    const res = await client.get(`/v1/webhooks/${webhook.id}/deliveries?${filter}&updatedSince=${q('2020-01-01T00:00:00.000Z')}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'updatedSince', message: `updatedSince cannot be combined with ${name}` }]);
  });
});

describe('a stream record whose webhooks were queued', () => {
  // docs/decisions/events-and-webhooks.md: the consumer "stops at the first [record] that fails, answering it as a
  // partial batch response, so a record whose webhooks were queued is never handed again": a record's audit entries
  // are written before its webhooks are queued, so one whose audit write failed has queued nothing yet.
  it('is queued once when its audit entry fails to write and the record is handed again', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    await subscribe(client, hook.url, ['lead.created']);
    const lead = (await client.post('/v1/leads', { name: 'Once Only', email: 'once@example.com' })).body.lead;
    await hook.waitFor(1);
    await api.eventsCaughtUp();
    // The lead's INSERT as Lambda would hand it (a new position, so its event is new to the table).
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, lead.id) }));
    const record = asLambdaRecord({
      eventID: 'qa-once',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'ddblocal',
      dynamodb: { ApproximateCreationDateTime: new Date(), Keys: marshall({ pk: Item!.pk, sk: Item!.sk }), NewImage: marshall(Item!), SequenceNumber: '900000000000000000000001', SizeBytes: 512, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    } as never);

    const queue = deliveryQueue() as LocalDeliveryQueue;
    const queued: DeliveryJob[] = [];
    const queueSpy = vi.spyOn(queue, 'send').mockImplementation(async (jobs) => {
      queued.push(...jobs.filter((job) => job.event.data.id === lead.id));
    });
    const send = dynamo.send.bind(dynamo);
    let auditFails = true;
    // The audit log's BatchWriteItem is throttled for the first handling only.
    const dynamoSpy = vi.spyOn(dynamo, 'send').mockImplementation((async (command: unknown) => {
      if (auditFails && command instanceof BatchWriteCommand && JSON.stringify(command.input).includes('"audit_')) {
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ThrottlingException' });
      }
      return send(command as never);
    }) as never);
    try {
      const first = await recordStreamBatch({ Records: [record] });
      expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: '900000000000000000000001' }] });
      auditFails = false;
      expect(await recordStreamBatch({ Records: [record] })).toEqual({ batchItemFailures: [] });
      await vi.waitFor(() => expect(queued.length).toBeGreaterThan(0), WAIT);
      // Let whatever the first handling started settle.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(queued.map((job) => job.event.id)).toHaveLength(1);
    } finally {
      queueSpy.mockRestore();
      dynamoSpy.mockRestore();
    }
  });
});

describe('the attempt that disables a subscription', () => {
  // WebhookDelivery.nextAttemptAt (GET /openapi): "When the next attempt is due …; null when none follows". The
  // attempt that disables the subscription is its job's last.
  it('records no next attempt, as none follows', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    hook.answerWith(500, 500, 500);
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    // Failing for a day already: the next failure disables it.
    const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id), UpdateExpression: 'SET failingSince = :at', ExpressionAttributeValues: { ':at': dayAgo } }));
    await client.post('/v1/leads', { name: 'Last Straw', email: 'last@example.com' });
    await hook.waitFor(1);
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook.isEnabled).toBe(false), WAIT);
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.totalCount).toBe(1), WAIT);
    const [attempt] = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries as WebhookDelivery[];
    expect(attempt).toMatchObject({ attempt: 1, status: 'FAILED', statusCode: 500 });
    expect(hook.received).toHaveLength(1);
    expect(attempt!.nextAttemptAt).toBeNull();
  });
});

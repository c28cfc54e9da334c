import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { handler as deliverBatch } from './deliver';
import { fromWebhookItem, webhookKeys } from './entity';
import { newId } from '#shared/ids';
import type { DeliveryJob } from './queue';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { WEBHOOK_LIMITS } from './limits';
import { useTestApi, type Client } from '../../test/support/api';
import { startReceiver } from '../../test/support/receiver';

// Receivers that hang hold real connections until the sender's timeout: these cases run on the real clock. A paused
// subscription's waits are on the clock a test moves (webhook-pause.test.ts).
const api = useTestApi({ events: true });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/** A receiver that takes every request and never answers: each stays open until the sender gives up on it. */
async function hanging() {
  const state = { received: 0, open: 0, mostOpen: 0 };
  const server = createServer((request) => {
    state.received++;
    state.open++;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    request.resume();
    request.socket.once('close', () => state.open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, state, dropAll: () => server.closeAllConnections() };
}

async function subscribe(client: Client, url: string) {
  const res = await client.post('/v1/webhooks', { url, events: ['lead.created'] });
  expect(res.status).toBe(201);
  return res.body.webhook as { id: string };
}

describe('the delivery pool, shared fairly between organizations', () => {
  it('delivers all of B’s events at their first attempt while A’s receiver hangs on at most its share of the slots', async () => {
    const a = await api.organization();
    const b = await api.organization();
    const hang = await hanging();
    const answers = await startReceiver();
    closers.push(() => answers.close());
    await subscribe(a.client, hang.url);
    const webhookB = await subscribe(b.client, answers.url);

    // A's backlog first, more than the whole local pool (10 slots): without a share, its attempts would take every slot.
    const backlogA = 12;
    for (let i = 0; i < backlogA; i++) await a.client.post('/v1/leads', { name: `Hung ${i}`, email: `hung-${i}@example.com` });
    const share = WEBHOOK_LIMITS.maxInFlightPerOrganization;
    await vi.waitFor(() => expect(hang.state.open).toBeGreaterThanOrEqual(share), { timeout: 20_000 });

    const eventsB = 5;
    for (let i = 0; i < eventsB; i++) await b.client.post('/v1/leads', { name: `Answered ${i}`, email: `answered-${i}@example.com` });
    await answers.waitFor(eventsB, 60_000);
    // B's deliveries all arrived while A's attempts were still hanging, and before A's backlog had been attempted.
    expect(hang.state.open).toBeGreaterThan(0);
    expect(hang.state.received).toBeLessThan(backlogA);
    // A never held more than its share of the pool.
    expect(hang.state.mostOpen).toBe(share);

    // Each of B's events took one attempt, which succeeded.
    const logB = await vi.waitFor(
      async () => {
        const deliveries = (await b.client.get(`/v1/webhooks/${webhookB.id}/deliveries`)).body.deliveries as { attempt: number; status: string }[];
        expect(deliveries).toHaveLength(eventsB);
        return deliveries;
      },
      { timeout: 10_000 },
    );
    expect(logB.map(({ attempt, status }) => `${attempt} ${status}`)).toEqual(Array(eventsB).fill('1 SUCCEEDED'));
  });

  it('tries a paused subscription at once when it moves to another url or is re-enabled: its receiver has failed nothing since', async () => {
    const { client, organizationId } = await api.organization();
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const webhook = await subscribe(client, 'http://127.0.0.1:9/hooks');
    const Key = webhookKeys.webhook(organizationId, webhook.id);
    const pauseForAnHour = () =>
      dynamo.send(new UpdateCommand({ TableName: config.tableName, Key, UpdateExpression: 'SET failuresInARow = :failures, pausedUntil = :until', ExpressionAttributeValues: { ':failures': 9, ':until': new Date(Date.now() + 3_600_000).toISOString() } }));
    const stored = async () => fromWebhookItem((await dynamo.send(new GetCommand({ TableName: config.tableName, Key, ConsistentRead: true }))).Item!);

    await pauseForAnHour();
    expect((await client.patch(`/v1/webhooks/${webhook.id}`, { url: receiver.url })).status).toBe(200);
    expect(await stored()).toMatchObject({ failuresInARow: 0, pausedUntil: null });
    await client.post('/v1/leads', { name: 'Moved Receiver', email: 'moved@example.com' });
    await receiver.waitFor(1);

    await pauseForAnHour();
    expect((await client.patch(`/v1/webhooks/${webhook.id}`, { isEnabled: true })).status).toBe(200);
    expect(await stored()).toMatchObject({ failuresInARow: 0, pausedUntil: null });
    await client.post('/v1/leads', { name: 'Re-enabled Receiver', email: 're-enabled@example.com' });
    await receiver.waitFor(2);
  });

  it('attempts the messages of one SQS batch together: a hanging receiver does not hold back the others of its batch', async () => {
    const a = await api.organization();
    const b = await api.organization();
    const hang = await hanging();
    const answers = await startReceiver();
    closers.push(() => answers.close());
    const webhookA = await subscribe(a.client, hang.url);
    const webhookB = await subscribe(b.client, answers.url);
    const at = new Date().toISOString();
    const job = (organizationId: string, webhookId: string): DeliveryJob => ({
      organizationId,
      webhookId,
      event: { id: newId('evt'), type: 'lead.created', occurredAt: at, organizationId, data: {} },
      attempt: 1,
      firstQueuedAt: at,
      notBefore: at,
    });
    const jobs = [job(a.organizationId, webhookA.id), job(b.organizationId, webhookB.id), job(b.organizationId, webhookB.id)];
    const batch = deliverBatch({ Records: jobs.map((body, i) => ({ messageId: `m${i}`, body: JSON.stringify(body) })) } as never);

    // The two behind the hanging one in the batch arrive while it still hangs.
    await answers.waitFor(2);
    await vi.waitFor(() => expect(hang.state).toMatchObject({ received: 1, open: 1 }));
    hang.dropAll();
    expect(await batch).toEqual({ batchItemFailures: [] });
  });
});

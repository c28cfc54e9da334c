import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { fromWebhookItem, webhookKeys } from './entity';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { WEBHOOK_LIMITS } from './limits';
import { useTestApi, type Client } from '../../test/support/api';
import { startReceiver, type Received, type Receiver } from '../../test/support/receiver';

// A paused subscription's waits (its pause, its probe, its jobs' backoff) are on the clock the test moves, so the test
// waits for none of them in real time. The delivery pool's real-time cases (receivers that hang) are in
// webhook-fairness.test.ts.
const api = useTestApi({ events: true, clock: 'manual' });
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function subscribe(client: Client, url: string) {
  const res = await client.post('/v1/webhooks', { url, events: ['lead.created'] });
  expect(res.status).toBe(201);
  return res.body.webhook as { id: string };
}

/**
 * Moves the clock until `done`, to the next timer due at a time: each move fires that timer and every other due
 * within a second of it at once (jobs put back on the queue come back spread by up to a second), then lets what they
 * started settle. At most `limit` moves.
 */
async function untilDone(done: () => boolean, limit = 100) {
  for (let moves = 0; !done() && moves < limit; moves++) {
    const next = api.clock.nextTimerAt();
    if (next === undefined) return;
    await api.clock.advanceTo(Math.max(next, api.clock.now()) + 1_000);
    await api.advanceTime(0);
  }
}

describe('the delivery pool, shared fairly between organizations', () => {
  it('pauses a subscription whose receiver failed five times in a row, on its own: its jobs wait unattempted, and once it answers every event arrives', async () => {
    const { client, organizationId } = await api.organization();
    const failing = await startReceiver();
    const healthy = await startReceiver();
    receivers.push(failing, healthy);
    failing.answerWith(...Array<number>(10_000).fill(500));
    const paused = await subscribe(client, failing.url);
    const beside = await subscribe(client, healthy.url);
    const stored = async () => fromWebhookItem((await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, paused.id), ConsistentRead: true }))).Item!);
    const eventIds = (received: Received[]) => new Set(received.map(({ body }) => (JSON.parse(body) as { id: string }).id));

    const events = 30;
    // Ten leads at a time: the queue takes their events' jobs as they come, whatever the order.
    for (let from = 0; from < events; from += 10) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, i) => client.post('/v1/leads', { name: `Paused ${from + i}`, email: `paused-${from + i}@example.com` })));
      expect(made.map(({ status }) => status)).toEqual(Array(10).fill(201));
    }
    await api.eventsCaughtUp();
    // The organization's other subscription was not paused with it: every event reached it at its first attempt (a
    // job that found the organization's slots taken went back on the queue, unattempted, until one freed).
    await untilDone(() => healthy.received.length >= events);
    expect(eventIds(healthy.received).size).toBe(events);
    // Meanwhile the failing one's jobs, queued beside those, waited unattempted once it had failed five times in a
    // row: fewer than half of the events were ever sent to it (each was, without the pause).
    expect(eventIds(failing.received).size).toBeLessThan(events / 2);
    const pausedState = await stored();
    expect(pausedState.failuresInARow).toBeGreaterThanOrEqual(WEBHOOK_LIMITS.pauseAfterFailures);
    expect(pausedState.pausedUntil).not.toBeNull();
    const besideLog = (await client.get(`/v1/webhooks/${beside.id}/deliveries?limit=100`)).body.deliveries as { attempt: number; status: string }[];
    expect(besideLog.map(({ attempt, status }) => `${attempt} ${status}`)).toEqual(Array(events).fill('1 SUCCEEDED'));

    // The receiver answers again: the next probe ends the pause, and every waiting event arrives.
    failing.answerWith();
    const answered = () => eventIds(failing.received.filter(({ answered }) => answered === 200)).size;
    await untilDone(() => answered() === events);
    expect(answered()).toBe(events);
    expect(await stored()).toMatchObject({ failuresInARow: 0, pausedUntil: null, failingSince: null });
  });
});

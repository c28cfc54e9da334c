import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { config } from '#shared/config';
import { activeSecrets } from './rules';
import { signingSecretsOf } from './signing-secrets';
import { retryAfterMs } from './post';
import { dynamo } from '#shared/dynamo';
import { fromWebhookItem, webhookKeys } from './entity';
import { WEBHOOK_LIMITS } from './limits';
import { SLOT_LEASE_MS, takeDeliverySlot } from './slots';
import { deliver } from './delivery';
import { newId } from '#shared/ids';
import { eventIdOf } from '../events/ids';
import { recordEvents } from '../events/store';
import { useTestApi } from '../../test/support/api';
import { startReceiver, type Receiver } from '../../test/support/receiver';

const api = useTestApi({ clock: 'manual' });
const receivers: Receiver[] = [];
afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())));

/** The webhook settings and the retry schedule read the environment once: load them afresh under `env`. */
async function deliveryWith(env: Record<string, string | undefined>) {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) value === undefined ? delete process.env[name] : (process.env[name] = value);
  };
  set(env);
  try {
    vi.resetModules();
    const [{ retryDelaySeconds }, { webhookSettings }] = await Promise.all([import('./delivery'), import('./settings')]);
    return { retryDelaySeconds, webhookSettings };
  } finally {
    set(before);
    // Whatever loads these modules next (the API's handlers) loads them under the file's own environment again.
    vi.resetModules();
  }
}

const DEPLOYED = { WEBHOOK_RETRY_BASE_SECONDS: undefined, WEBHOOK_URLS_ALLOW_PRIVATE: undefined };
const JITTER = [0, 0.25, 0.5, 0.75, 0.999];

// First in the file: the handlers it loads read this file's manual clock, which those loaded after a test below resets
// the modules would not.
describe('a subscription’s expiresAt, on the clock', () => {
  /** The instant `at` as RFC 3339 in a zone `offsetMinutes` from UTC, as a caller there writes it. */
  const inZone = (at: number, offsetMinutes: number) => {
    const sign = offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(offsetMinutes);
    const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    return new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 23) + offset;
  };

  it.each([
    [0, 0],
    [660, 5],
    [-300, 13],
    [345, 22],
  ])('reads as enabled until the instant of its expiresAt, then disabled, EXPIRED (written %i minutes from UTC, at %i h UTC)', async (offsetMinutes, hour) => {
    const { client } = await api.organization();
    const startOfDay = new Date(api.clock.now());
    startOfDay.setUTCHours(24 + hour, 0, 0, 0);
    await api.advanceTime(startOfDay.getTime() - api.clock.now());
    const expiresAt = api.clock.now() + 3 * 3_600_000;
    const created = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['lead.created'], expiresAt: inZone(expiresAt, offsetMinutes) });
    expect(created.status).toBe(201);
    expect(created.body.webhook.expiresAt).toBe(new Date(expiresAt).toISOString());
    await api.advanceTime(3 * 3_600_000 - 1);
    expect((await client.get(`/v1/webhooks/${created.body.webhook.id}`)).body.webhook).toMatchObject({ isEnabled: true, disabledReason: null });
    await api.advanceTime(1);
    expect((await client.get(`/v1/webhooks/${created.body.webhook.id}`)).body.webhook).toMatchObject({ isEnabled: false, disabledReason: 'EXPIRED' });
  });

  it.each([
    ['2027-02-28T12:00:00.000Z', '2028-02-28T12:00:00.000Z'],
    ['2028-02-29T23:30:00.000Z', '2029-03-01T23:30:00.000Z'],
  ])('takes an expiresAt a year on from %s to the millisecond (%s), and refuses one a millisecond later or a millisecond ago', async (from, latest) => {
    const { client } = await api.organization();
    await api.advanceTime(Date.parse(from) - api.clock.now());
    const post = (expiresAt: string) => client.post('/v1/webhooks', { url: `https://hooks.example.com/${expiresAt}`, events: ['*'], expiresAt });
    expect((await post(latest)).status).toBe(201);
    for (const refused of [new Date(Date.parse(latest) + 1).toISOString(), new Date(Date.parse(from) - 1).toISOString(), from]) {
      const res = await post(refused);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['expiresAt']);
    }
  });
});

// Before the tests below reset the modules: the delivery worker and queue read this file's manual clock.
describe('deliveries, on the clock', () => {
  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };
  const deliveriesOf = async (client: { get: (path: string) => Promise<{ body: { deliveries: { status: string; attemptedAt: string; nextAttemptAt: string | null }[] } }> }, webhookId: string) =>
    (await client.get(`/v1/webhooks/${webhookId}/deliveries`)).body.deliveries;
  const leadCreated = (organizationId: string) => {
    const at = new Date(api.clock.now()).toISOString();
    return { organizationId, event: { id: newId('evt'), type: 'lead.created', occurredAt: at, organizationId, data: {} }, attempt: 1, firstQueuedAt: at, notBefore: at };
  };

  it('holds a paused receiver’s job until the clock passes its pause, then sends it as the probe, which ends the pause', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = (await client.post('/v1/webhooks', { url: hook.url, events: ['lead.created'] })).body.webhook;
    const pausedUntil = api.clock.now() + 10 * 60_000;
    const Key = webhookKeys.webhook(organizationId, webhook.id);
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key, UpdateExpression: 'SET failuresInARow = :failures, pausedUntil = :until', ExpressionAttributeValues: { ':failures': WEBHOOK_LIMITS.pauseAfterFailures, ':until': new Date(pausedUntil).toISOString() } }));

    await deliver({ ...leadCreated(organizationId), webhookId: webhook.id });
    await api.advanceTime(10 * 60_000 - 1);
    expect(hook.received).toEqual([]);
    // The job comes back at the end of the pause, within the second's jitter that spreads the jobs held with it.
    await api.advanceTime(1_001);
    expect(hook.received).toHaveLength(1);
    expect(await deliveriesOf(client, webhook.id)).toEqual([expect.objectContaining({ status: 'SUCCEEDED', nextAttemptAt: null })]);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key, ConsistentRead: true }));
    expect(Item).toMatchObject({ failuresInARow: 0, pausedUntil: null });
  });

  it('retries a failed attempt once the clock has passed its backoff, not before, and records each attempt at the clock’s time', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    hook.answerWith(503);
    const webhook = (await client.post('/v1/webhooks', { url: hook.url, events: ['lead.created'] })).body.webhook;
    const first = api.clock.now();
    await deliver({ ...leadCreated(organizationId), webhookId: webhook.id });
    const [failed] = await deliveriesOf(client, webhook.id);
    expect(failed).toMatchObject({ status: 'FAILED', attemptedAt: new Date(first).toISOString() });
    const retryAt = Date.parse(failed!.nextAttemptAt!);
    // The local schedule's first wait: a second, within its jitter.
    expect(retryAt - first).toBeGreaterThanOrEqual(800);
    expect(retryAt - first).toBeLessThanOrEqual(1_200);

    await api.advanceTime(retryAt - api.clock.now() - 1);
    expect(hook.received).toHaveLength(1);
    await api.advanceTime(1);
    expect(hook.received).toHaveLength(2);
    expect(await deliveriesOf(client, webhook.id)).toEqual([expect.objectContaining({ status: 'SUCCEEDED', attemptedAt: new Date(retryAt).toISOString() }), failed]);
  });

  it('retries a redelivery its receiver refused however far the clock has moved from the system’s time: its 24 hours are on the clock', async () => {
    const { client, organizationId } = await api.organization();
    await api.advanceTime('P2D');
    const hook = await receiver();
    hook.answerWith(503);
    const webhook = (await client.post('/v1/webhooks', { url: hook.url, events: ['lead.created'] })).body.webhook;
    const occurredAt = Date.now() - 60_000;
    const event = { id: eventIdOf(occurredAt, '31'), type: 'lead.created' as const, occurredAt: new Date(occurredAt).toISOString(), organizationId, data: {} };
    await recordEvents([event]);

    const redelivery = await client.post(`/v1/events/${event.id}/redeliver`, { webhookId: webhook.id });
    expect(redelivery.status).toBe(202);
    expect(redelivery.body.delivery.nextAttemptAt).toBe(new Date(api.clock.now()).toISOString());
    await api.advanceTime(0);
    expect(hook.received).toHaveLength(1);
    const [failed] = await deliveriesOf(client, webhook.id);
    expect(failed).toMatchObject({ status: 'FAILED', nextAttemptAt: expect.any(String) });
    await api.advanceTime(Date.parse(failed!.nextAttemptAt!) - api.clock.now());
    expect(hook.received).toHaveLength(2);
  });
});

describe('secret rotation', () => {
  it('keeps the previous secret signing for exactly 24 hours after the rotation, then only the new one', async () => {
    const { client, organizationId } = await api.organization();
    const created = await client.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['lead.created'] });
    expect(created.status).toBe(201);
    const { id, secret: first } = created.body.webhook;
    const rotatedAt = api.clock.now();
    const rotated = await client.post(`/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const second = rotated.body.webhook.secret as string;

    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, id), ConsistentRead: true }));
    const stored = await signingSecretsOf(organizationId, fromWebhookItem(Item!));
    const overlapEnds = Date.parse(stored.find((s) => s.secret === first)!.expiresAt!);
    // On the clock, which stands still meanwhile: exactly 24 hours.
    expect(overlapEnds - rotatedAt).toBe(24 * 3_600_000);

    expect(activeSecrets(stored, overlapEnds - 1)).toEqual([second, first]);
    expect(activeSecrets(stored, overlapEnds)).toEqual([second]);
  });
});

describe('the webhook retry schedule', () => {
  it('deployed, waits about 30 s before the first retry and doubles, each wait within 20 % of its step', async () => {
    const { retryDelaySeconds, webhookSettings } = await deliveryWith(DEPLOYED);
    expect(webhookSettings).toMatchObject({ retryBaseSeconds: 30, allowPrivateUrls: false, timeoutMs: 10_000 });
    for (const [attempt, step] of [[1, 30], [2, 60], [3, 120], [4, 240], [5, 480], [6, 960], [7, 1_920]] as const) {
      for (const random of JITTER) {
        expect(retryDelaySeconds(attempt, random)).toBeGreaterThanOrEqual(step * 0.8);
        expect(retryDelaySeconds(attempt, random)).toBeLessThanOrEqual(step * 1.2);
      }
    }
    // Jitter spreads the retries of one outage, so a receiver coming back is not hit by all of them at once.
    expect(new Set(JITTER.map((random) => retryDelaySeconds(3, random))).size).toBe(JITTER.length);
  });

  it('deployed, never waits more than an hour between two attempts, jitter included', async () => {
    const { retryDelaySeconds } = await deliveryWith(DEPLOYED);
    for (let attempt = 8; attempt <= 40; attempt++) {
      for (const random of JITTER) expect(retryDelaySeconds(attempt, random)).toBeLessThanOrEqual(3_600);
    }
    expect(retryDelaySeconds(12, 0.999)).toBe(3_600);
  });

  it('locally, starts at 1 s, so three attempts fall within a few seconds', async () => {
    const { retryDelaySeconds, webhookSettings } = await deliveryWith({ WEBHOOK_RETRY_BASE_SECONDS: '1', WEBHOOK_URLS_ALLOW_PRIVATE: 'true' });
    expect(webhookSettings).toMatchObject({ retryBaseSeconds: 1, allowPrivateUrls: true });
    expect(retryDelaySeconds(1, 0.999) + retryDelaySeconds(2, 0.999)).toBeLessThan(3.6);
  });

  it('refuses to start with a retry base that is not a positive number', async () => {
    await expect(deliveryWith({ WEBHOOK_RETRY_BASE_SECONDS: '0' })).rejects.toThrow(/WEBHOOK_RETRY_BASE_SECONDS/);
    await expect(deliveryWith({ WEBHOOK_RETRY_BASE_SECONDS: 'soon' })).rejects.toThrow(/WEBHOOK_RETRY_BASE_SECONDS/);
  });
});

describe('a receiver’s Retry-After', () => {
  const now = Date.parse('2026-11-20T10:00:00.000Z');

  it('reads delay-seconds and each HTTP-date form RFC 9110 has a recipient accept, as ms from now; a date already past asks for no wait', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Fri, 20 Nov 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('Friday, 20-Nov-26 10:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('is no request at all when absent or neither form', () => {
    for (const value of [undefined, '', 'soon', '-5', '1.5', '2026-11-20', '99999999999']) expect(retryAfterMs(value, now), String(value)).toBeNull();
  });
});

describe('an organization’s delivery slots', () => {
  /** Takes slots one by one until none is free: how many were taken, and each taken one's release. */
  async function takeAll(organizationId: string) {
    const taken = [];
    for (let slot = await takeDeliverySlot(organizationId); slot; slot = await takeDeliverySlot(organizationId)) taken.push(slot);
    return taken;
  }

  it('takes a slot again once its lease has run out: attempts that died holding all three lose the organization none of them', async () => {
    const { organizationId } = await api.organization();
    // Three attempts take the three slots, then crash or time out: none releases its slot.
    const crashed = await takeAll(organizationId);
    expect(crashed).toHaveLength(WEBHOOK_LIMITS.maxInFlightPerOrganization);
    await api.advanceTime(SLOT_LEASE_MS - 1);
    expect(await takeDeliverySlot(organizationId)).toBeUndefined();
    await api.advanceTime(1);
    const retaken = await takeAll(organizationId);
    expect(retaken).toHaveLength(WEBHOOK_LIMITS.maxInFlightPerOrganization);
    // A crashed attempt's late release frees nothing: each slot is another attempt's now.
    await Promise.all(crashed.map((slot) => slot.release()));
    expect(await takeDeliverySlot(organizationId)).toBeUndefined();
    // Released by the attempts holding them, they are free at once.
    await Promise.all(retaken.map((slot) => slot.release()));
    expect(await takeAll(organizationId)).toHaveLength(WEBHOOK_LIMITS.maxInFlightPerOrganization);
  });
});


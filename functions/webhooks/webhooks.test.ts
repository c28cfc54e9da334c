import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchWriteCommand, DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { handler as recordStreamBatch } from '../stream/record';
import type { LocalDeliveryQueue } from './queue';
import { insertRecordOf } from '../../test/support/stream-records';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { leadKeys } from '../leads/entity';
import { fromWebhookItem, webhookKeys } from './entity';
import { signingSecretsOf } from './signing-secrets';
import { deliver } from './delivery';
import { deliveryQueue, type DeliveryJob } from './queue';
import { eventIdOf } from '../events/ids';
import { recordEvents } from '../events/store';
import { recordDelivery } from './store';
import type { WebhookDelivery } from './schema';
import { newId } from '#shared/ids';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { webhookSettings } from './settings';
import { useTestApi, type Client } from '../../test/support/api';
import { ISO_MS, sleep } from '../../test/support/fixtures';
import { startReceiver, type Received, type Receiver } from '../../test/support/receiver';

/** How long to wait for the stream consumer and the local carrier, which poll: long enough for a loaded machine. */
const WAIT = { timeout: 10_000 };

const api = useTestApi({ events: true });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/**
 * With the retry base at `seconds` until the test ends: a test that checks no retry follows waits a few times the
 * first retry's wait (the base, ±20 %), not npm start's second.
 */
function retryBaseOf(seconds: number) {
  const base = webhookSettings.retryBaseSeconds;
  webhookSettings.retryBaseSeconds = seconds;
  onTestFinished(() => {
    webhookSettings.retryBaseSeconds = base;
  });
}

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  closers.push(() => started.close());
  return started;
}

/** A receiver whose every answer the test writes, once the request has arrived whole; it counts the requests it got. */
async function answering(answer: (response: ServerResponse, count: number) => void) {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => answer(response, ++count));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, requests: () => count };
}

type Attempt = Pick<WebhookDelivery, 'eventId' | 'attempt' | 'status' | 'statusCode' | 'error' | 'attemptedAt' | 'nextAttemptAt'>;
const deliveriesOf = async (client: Client, webhookId: string) => (await client.get(`/v1/webhooks/${webhookId}/deliveries`)).body.deliveries as Attempt[];

async function subscribe(client: Client, url: string, events: string[] = ['*']) {
  const res = await client.post('/v1/webhooks', { url, events, description: 'CRM sync' });
  expect(res.status).toBe(201);
  return res.body.webhook as { id: string; secret: string; url: string; events: string[] };
}

/** What the standardwebhooks package (not this project's code) says about a delivery: the event, or a throw. */
const verify = (secret: string, { body, headers }: Pick<Received, 'body' | 'headers'>) => new StandardWebhook(secret).verify(body, headers as Record<string, string>) as { id: string; type: string };
const signedBy = (secret: string, delivery: Pick<Received, 'body' | 'headers'>) => {
  try {
    return Boolean(verify(secret, delivery));
  } catch {
    return false;
  }
};

/** A lead.created event recorded a minute ago, as the stream consumer records one, for a redelivery to name. */
async function storedLeadCreated(organizationId: string, sequence: string, email: string) {
  const at = Date.now() - 60_000;
  const event = { id: eventIdOf(at, sequence), type: 'lead.created' as const, occurredAt: new Date(at).toISOString(), organizationId, data: { email } };
  await recordEvents([event]);
  return event;
}

/** Marks a subscription failing since 25 hours ago, as a day of failed deliveries would have: the clock that disables it. */
async function failingForADay(organizationId: string, webhookId: string): Promise<string> {
  const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
  await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhookId), UpdateExpression: 'SET failingSince = :at', ExpressionAttributeValues: { ':at': dayAgo } }));
  return dayAgo;
}
describe('webhook subscriptions', () => {
  it('answers 201 with the subscription and a whsec_ secret shown only then', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/sales', events: ['lead.created', 'sms.delivered'] });
    expect(res.status).toBe(201);
    const { webhook } = res.body;
    expect(webhook).toEqual({
      id: expect.stringMatching(/^webhook_[0-9A-Z]{26}$/),
      url: 'https://hooks.example.com/sales',
      events: ['lead.created', 'sms.delivered'],
      description: null,
      isEnabled: true,
      disabledReason: null,
      expiresAt: null,
      failingSince: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: webhook.createdAt,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(webhook.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    const { secret: _secret, ...shown } = webhook;
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body).toEqual({ webhook: shown });
    expect((await client.get('/v1/webhooks')).body).toEqual({ webhooks: [shown], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });
  });

  it('changes url, events and isEnabled, and deletes', async () => {
    const { client } = await api.organization();
    const webhook = await subscribe(client, 'https://hooks.example.com/a');
    const res = await client.put(`/v1/webhooks/${webhook.id}`, { url: 'https://hooks.example.com/b', events: ['lead.deleted'], isEnabled: false });
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ url: 'https://hooks.example.com/b', events: ['lead.deleted'], isEnabled: false, description: 'CRM sync' });
    expect(res.body.webhook.secret).toBeUndefined();
    expect((await client.delete(`/v1/webhooks/${webhook.id}`)).body).toEqual({ success: true, id: webhook.id });
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await client.get('/v1/webhooks')).body.totalCount).toBe(0);
  });

  it.each([
    ['not a URL', { url: 'hooks.example.com/sales', events: ['*'] }, 'url'],
    ['an ftp URL', { url: 'ftp://hooks.example.com/', events: ['*'] }, 'url'],
    ['credentials in the URL', { url: 'https://user:pass@hooks.example.com/', events: ['*'] }, 'url'],
    ['an unknown event type', { url: 'https://hooks.example.com/', events: ['lead.exploded'] }, 'events'],
    ['no events', { url: 'https://hooks.example.com/', events: [] }, 'events'],
    ['an unknown field', { url: 'https://hooks.example.com/', events: ['*'], secret: 'mine' }, 'secret'],
  ])('answers 400 naming the field for %s, and creates nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/webhooks', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path.split('.')[0])).toContain(field);
    expect((await client.get('/v1/webhooks')).body.totalCount).toBe(0);
  });

  describe('deployed rules for URLs', () => {
    afterEach(() => {
      webhookSettings.allowPrivateUrls = true;
    });

    it.each(['http://hooks.example.com/', 'https://127.0.0.1/', 'https://localhost:8443/', 'https://169.254.169.254/latest/meta-data', 'https://10.1.2.3/', 'https://192.168.0.10/', 'https://[::1]/', 'https://[fd00::1]/', 'https://[::ffff:127.0.0.1]/'])(
      'refuses %s with 400 naming url',
      async (url) => {
        const { client } = await api.organization();
        webhookSettings.allowPrivateUrls = false;
        const res = await client.post('/v1/webhooks', { url, events: ['*'] });
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual([{ path: 'url', message: expect.stringMatching(/^url must/) }]);
      },
    );

    it('refuses a private address at delivery too, recording why', async () => {
      const { client } = await api.organization();
      const hook = await receiver();
      const webhook = await subscribe(client, hook.url);
      webhookSettings.allowPrivateUrls = false;
      await client.post('/v1/leads', { name: 'Blocked Delivery', email: 'blocked@example.com' });
      await api.eventsCaughtUp();
      await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.totalCount).toBeGreaterThan(0), { timeout: 10_000 });
      const [attempt] = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries;
      expect(attempt).toMatchObject({ status: 'FAILED', statusCode: null, error: 'url must be an https URL' });
      expect(hook.received).toEqual([]);
    });
  });

  it.each([
    ['Disabled at 2026-11-01T00:00:00.000Z: the receiver answered HTTP 410 Gone, asking for no more deliveries. Fix the receiver, then set isEnabled to true.', 'GONE'],
    ['Disabled at 2026-11-01T00:00:00.000Z: every delivery since 2026-10-31T00:00:00.000Z failed (last: HTTP 500). Fix the receiver, then set isEnabled to true.', 'FAILING'],
  ])('reads a subscription disabled when the reason was a sentence with its code: %s', async (sentence, code) => {
    const { client, organizationId } = await api.organization();
    const webhook = await subscribe(client, 'https://hooks.example.com/legacy');
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id), UpdateExpression: 'SET isEnabled = :no, disabledReason = :why REMOVE expiresAt', ExpressionAttributeValues: { ':no': false, ':why': sentence } }));
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ isEnabled: false, disabledReason: code, expiresAt: null });
  });

  it("answers 404 for another organization's webhook on every route", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const webhook = await subscribe(a.client, 'https://hooks.example.com/a');
    expect((await b.client.get(`/v1/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await b.client.put(`/v1/webhooks/${webhook.id}`, { isEnabled: false })).status).toBe(404);
    expect((await b.client.post(`/v1/webhooks/${webhook.id}/rotate-secret`)).status).toBe(404);
    expect((await b.client.get(`/v1/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
    expect((await b.client.delete(`/v1/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await a.client.get(`/v1/webhooks/${webhook.id}`)).body.webhook.isEnabled).toBe(true);
  });

  it('allows 16 webhooks per organization and answers 400 for the 17th', async () => {
    const { client } = await api.organization();
    for (let i = 0; i < 16; i++) await subscribe(client, `https://hooks.example.com/${i}`);
    const res = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/17', events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('WEBHOOK_LIMIT');
    expect((await client.get('/v1/webhooks')).body.totalCount).toBe(16);
    // At the limit, subscribing again to what one has is still answered by it.
    const again = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/0', events: ['*'] });
    expect(again.status).toBe(200);
    expect((await client.get('/v1/webhooks')).body.totalCount).toBe(16);
  });
});

describe('subscribing again (REST hooks)', () => {
  it('answers 200 with the enabled subscription that has the url and events, in any order, and its secret; changes nothing', async () => {
    const { client } = await api.organization();
    const first = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['lead.created', 'sms.received'], description: 'Zap 1' });
    expect(first.status).toBe(201);
    const again = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['sms.received', 'lead.created', 'sms.received'], description: 'Zap 2' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.body.webhook.secret).toMatch(/^whsec_/);
    const { secret: _secret, ...shown } = first.body.webhook;
    expect((await client.get('/v1/webhooks')).body).toEqual({ webhooks: [shown], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });
  });

  it.each([
    ['fewer events', { url: 'https://hooks.example.com/zap', events: ['lead.created'] }],
    ['more events', { url: 'https://hooks.example.com/zap', events: ['lead.created', 'sms.received', 'lead.updated'] }],
    ['all events', { url: 'https://hooks.example.com/zap', events: ['*'] }],
    ['another url', { url: 'https://hooks.example.com/zap/', events: ['lead.created', 'sms.received'] }],
  ])('makes a second subscription for %s', async (_, body) => {
    const { client } = await api.organization();
    const first = await subscribe(client, 'https://hooks.example.com/zap', ['lead.created', 'sms.received']);
    const res = await client.post('/v1/webhooks', body);
    expect(res.status).toBe(201);
    expect(res.body.webhook.id).not.toBe(first.id);
    expect(res.body.webhook.secret).not.toBe(first.secret);
    expect((await client.get('/v1/webhooks')).body.totalCount).toBe(2);
  });

  it('makes one subscription of creates of the same url and events sent at the same moment', async () => {
    const { client } = await api.organization();
    const body = { url: 'https://hooks.example.com/n8n', events: ['lead.created', 'inquiry.created'] };
    const answers = await Promise.all([0, 1, 2, 3].map(() => client.post('/v1/webhooks', body)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 201]);
    const made = answers.find((res) => res.status === 201)!.body;
    for (const res of answers) expect(res.body).toEqual(made);
    expect((await client.get('/v1/webhooks')).body.webhooks.map((webhook: { id: string }) => webhook.id)).toEqual([made.webhook.id]);
  });

  it('makes a new subscription when the one with the url and events was disabled, or deleted', async () => {
    const { client } = await api.organization();
    const first = await subscribe(client, 'https://hooks.example.com/zap', ['lead.created']);
    await client.put(`/v1/webhooks/${first.id}`, { isEnabled: false });
    const second = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['lead.created'] });
    expect(second.status).toBe(201);
    expect(second.body.webhook.id).not.toBe(first.id);
    expect((await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['lead.created'] })).body.webhook.id).toBe(second.body.webhook.id);
    await client.delete(`/v1/webhooks/${second.body.webhook.id}`);
    const third = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['lead.created'] });
    expect(third.status).toBe(201);
    expect([first.id, second.body.webhook.id]).not.toContain(third.body.webhook.id);
    expect((await client.get('/v1/webhooks')).body.totalCount).toBe(2);
  });

  it('makes a new subscription when the one that had the url and events has moved to others', async () => {
    const { client } = await api.organization();
    const first = await subscribe(client, 'https://hooks.example.com/zap', ['lead.created']);
    await client.put(`/v1/webhooks/${first.id}`, { events: ['lead.updated'] });
    const second = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['lead.created'] });
    expect(second.status).toBe(201);
    expect(second.body.webhook.id).not.toBe(first.id);
  });

  it("never answers another organization's subscription", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const theirs = await subscribe(a.client, 'https://hooks.example.com/shared', ['lead.created']);
    const res = await b.client.post('/v1/webhooks', { url: 'https://hooks.example.com/shared', events: ['lead.created'] });
    expect(res.status).toBe(201);
    expect(res.body.webhook.id).not.toBe(theirs.id);
    expect(res.body.webhook.secret).not.toBe(theirs.secret);
  });
});

describe('expiresAt', () => {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

  /** Moves a subscription's expiresAt, and its expiry item's, to a minute ago, as the passing of its time would. */
  async function expiredAMinuteAgo(organizationId: string, webhookId: string): Promise<string> {
    const past = new Date(Date.now() - 60_000).toISOString();
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhookId), UpdateExpression: 'SET expiresAt = :at', ExpressionAttributeValues: { ':at': past } }));
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKeys.webhookExpiry(organizationId, webhookId), UpdateExpression: 'SET expiresAt = :at', ExpressionAttributeValues: { ':at': past } }));
    return past;
  }

  const disabledEvents = async (client: Client) => {
    await api.eventsCaughtUp();
    return (await client.get('/v1/events?type=webhook.disabled')).body.events as { data: { id: string; isEnabled: boolean; disabledReason: string } }[];
  };

  it('takes an RFC 3339 expiresAt in any offset on create and update, answers it in UTC, and null clears it', async () => {
    const { client } = await api.organization();
    const at = new Date(Math.ceil((Date.now() + 2 * 86_400_000) / 1000) * 1000);
    const sydney = new Date(at.getTime() + 11 * 3_600_000).toISOString().slice(0, 19) + '+11:00';
    const created = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['lead.created'], expiresAt: sydney });
    expect(created.status).toBe(201);
    expect(created.body.webhook).toMatchObject({ isEnabled: true, disabledReason: null, expiresAt: at.toISOString() });
    const newYork = new Date(at.getTime() - 5 * 3_600_000).toISOString().slice(0, 19) + '-05:00';
    expect((await client.put(`/v1/webhooks/${created.body.webhook.id}`, { expiresAt: newYork })).body.webhook.expiresAt).toBe(at.toISOString());
    expect((await client.put(`/v1/webhooks/${created.body.webhook.id}`, { expiresAt: null })).body.webhook).toMatchObject({ isEnabled: true, expiresAt: null });
    expect((await client.post('/v1/webhooks', { url: 'https://hooks.example.com/plain', events: ['*'] })).body.webhook.expiresAt).toBeNull();
  });

  it.each([
    ['a time that has passed', () => new Date(Date.now() - 60_000).toISOString()],
    ['more than a year from now', () => new Date(Date.now() + 367 * 86_400_000).toISOString()],
    ['a date without a time', () => '2027-01-15'],
    ['a time without an offset', () => '2027-01-15T09:00:00'],
    ['not a time', () => 'next week'],
    ['a number', () => Date.now() + 86_400_000],
  ])('answers 400 naming expiresAt for %s, on create and on update, and changes nothing', async (_, expiresAt) => {
    const { client } = await api.organization();
    const created = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/zap', events: ['*'], expiresAt: expiresAt() });
    expect(created.status).toBe(400);
    expect(created.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['expiresAt']);
    expect((await client.get('/v1/webhooks')).body.totalCount).toBe(0);
    const webhook = await subscribe(client, 'https://hooks.example.com/zap');
    const updated = await client.put(`/v1/webhooks/${webhook.id}`, { expiresAt: expiresAt(), description: 'changed' });
    expect(updated.status).toBe(400);
    expect(updated.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['expiresAt']);
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ description: 'CRM sync', expiresAt: null });
  });

  it('takes a new expiresAt from a subscribe again of the same url and events: the answer, the subscription and its expiry item move, later or sooner', async () => {
    const { client, organizationId } = await api.organization();
    const url = 'https://hooks.example.com/renewed';
    const first = (await client.post('/v1/webhooks', { url, events: ['lead.created', 'lead.updated'], expiresAt: inHours(2) })).body.webhook;
    const expiryOf = async () => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhookExpiry(organizationId, first.id), ConsistentRead: true }))).Item;
    for (const expiresAt of [inHours(48), inHours(1)]) {
      const again = await client.post('/v1/webhooks', { url, events: ['lead.updated', 'lead.created'], expiresAt });
      expect([again.status, again.body.webhook.id, again.body.webhook.expiresAt, again.body.webhook.secret]).toEqual([200, first.id, expiresAt, first.secret]);
      expect((await client.get(`/v1/webhooks/${first.id}`)).body.webhook.expiresAt).toBe(expiresAt);
      expect(await expiryOf()).toMatchObject({ expiresAt, expiresAtEpoch: Math.ceil(Date.parse(expiresAt) / 1000) });
    }
    const kept = inHours(1);
    await client.post('/v1/webhooks', { url, events: ['lead.created', 'lead.updated'], expiresAt: kept });
    // Without one, it keeps the one it has; one in the past is refused, as a create's is, and changes nothing.
    expect((await client.post('/v1/webhooks', { url, events: ['lead.created', 'lead.updated'] })).body.webhook.expiresAt).toBe(kept);
    const past = await client.post('/v1/webhooks', { url, events: ['lead.created', 'lead.updated'], expiresAt: inHours(-1) });
    expect([past.status, past.body.error.details.map((detail: { path: string }) => detail.path)]).toEqual([400, ['expiresAt']]);
    expect((await expiryOf())?.expiresAt).toBe(kept);
    // Another url or other events is another subscription, which leaves this one's expiry as it is.
    expect((await client.post('/v1/webhooks', { url, events: ['lead.created'], expiresAt: inHours(5) })).status).toBe(201);
    expect((await client.get(`/v1/webhooks/${first.id}`)).body.webhook.expiresAt).toBe(kept);
    // Two at once: each answers the one subscription, which ends at one of the two times.
    const [a, b] = [inHours(10), inHours(20)];
    const both = await Promise.all([a, b].map((expiresAt) => client.post('/v1/webhooks', { url, events: ['lead.created', 'lead.updated'], expiresAt })));
    expect(both.map((res) => [res.status, res.body.webhook.id])).toEqual([[200, first.id], [200, first.id]]);
    const ends = (await client.get(`/v1/webhooks/${first.id}`)).body.webhook.expiresAt;
    expect([a, b]).toContain(ends);
    expect((await expiryOf())?.expiresAt).toBe(ends);
  });

  it('sends nothing to a subscription past its expiresAt, which reads as disabled, EXPIRED; the next event disables it, and webhook.disabled says so', async () => {
    const { client, organizationId } = await api.organization();
    const ending = await receiver();
    const control = await receiver();
    const watcher = await receiver();
    const webhook = await client.post('/v1/webhooks', { url: ending.url, events: ['lead.created'], expiresAt: inHours(1) });
    await subscribe(client, control.url, ['lead.created']);
    const watching = await subscribe(client, watcher.url, ['webhook.disabled']);
    const past = await expiredAMinuteAgo(organizationId, webhook.body.webhook.id);

    const read = (await client.get(`/v1/webhooks/${webhook.body.webhook.id}`)).body.webhook;
    expect(read).toMatchObject({ isEnabled: false, disabledReason: 'EXPIRED', expiresAt: past });
    expect((await client.get('/v1/webhooks')).body.webhooks).toContainEqual(read);

    await client.post('/v1/leads', { name: 'Too Late', email: 'too-late@example.com' });
    await control.waitFor(1);
    const [notice] = await watcher.waitFor(1);
    expect(verify(watching.secret, notice!)).toMatchObject({ type: 'webhook.disabled', data: { id: webhook.body.webhook.id, isEnabled: false, disabledReason: 'EXPIRED' } });
    expect(await disabledEvents(client)).toEqual([expect.objectContaining({ data: { ...read, updatedAt: expect.stringMatching(ISO_MS) } })]);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.body.webhook.id), ConsistentRead: true }));
    expect(Item).toMatchObject({ isEnabled: false, disabledReason: 'EXPIRED' });
    expect(ending.received).toEqual([]);
  });

  it('drops a retry due after the subscription’s expiresAt, before anything disabled it, recording it not sent', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = (await client.post('/v1/webhooks', { url: hook.url, events: ['lead.created'], expiresAt: inHours(1) })).body.webhook;
    const past = await expiredAMinuteAgo(organizationId, webhook.id);
    const at = new Date().toISOString();
    const event = { id: newId('evt'), type: 'lead.created' as const, occurredAt: at, organizationId, data: {} };
    await deliver({ organizationId, webhookId: webhook.id, event, attempt: 2, firstQueuedAt: at, notBefore: at });
    expect(hook.received).toEqual([]);
    expect(await deliveriesOf(client, webhook.id)).toMatchObject([{ attempt: 2, status: 'FAILED', statusCode: null, error: `not sent: the subscription expired (at ${past}) before the retry was due`, nextAttemptAt: null }]);
  });

  it('keeps an expiry item whose TTL is expiresAt; its removal by the TTL disables the subscription with webhook.disabled, though no other event comes', async () => {
    const { client, organizationId } = await api.organization();
    const expiresAt = inHours(3);
    const webhook = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/ttl', events: ['lead.created'], expiresAt })).body.webhook;
    const expiryKey = webhookKeys.webhookExpiry(organizationId, webhook.id);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: expiryKey, ConsistentRead: true }));
    expect(Item).toMatchObject({ webhookId: webhook.id, expiresAt, expiresAtEpoch: Math.ceil(Date.parse(expiresAt) / 1000) });

    await expiredAMinuteAgo(organizationId, webhook.id);
    // What DynamoDB's TTL does once expiresAtEpoch has passed (DynamoDB Local deletes nothing by TTL).
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: expiryKey }));
    const events = await disabledEvents(client);
    expect(events.map((event) => event.data)).toEqual([expect.objectContaining({ id: webhook.id, isEnabled: false, disabledReason: 'EXPIRED' })]);
  });

  it('disables nothing when the expiry item goes before its time: its expiresAt cleared, or the subscription deleted', async () => {
    const { client } = await api.organization();
    const kept = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/kept', events: ['lead.created'], expiresAt: inHours(3) })).body.webhook;
    await client.put(`/v1/webhooks/${kept.id}`, { expiresAt: null });
    const gone = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/gone', events: ['lead.created'], expiresAt: inHours(3) })).body.webhook;
    await client.delete(`/v1/webhooks/${gone.id}`);
    expect(await disabledEvents(client)).toEqual([]);
    expect((await client.get(`/v1/webhooks/${kept.id}`)).body.webhook).toMatchObject({ isEnabled: true, expiresAt: null });
  });

  it('moves expiresAt and its expiry item together: a store that fails the expiry item’s write leaves both as they were, never one', async () => {
    const { client, organizationId } = await api.organization();
    const first = inHours(3);
    const webhook = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/together', events: ['lead.created'], description: 'CRM sync', expiresAt: first })).body.webhook;
    const expiryKey = webhookKeys.webhookExpiry(organizationId, webhook.id);
    /** The subscription's expiresAt and its expiry item's, as the table holds them. */
    const stored = async () => {
      const read = (Key: { pk: string; sk: string }) => dynamo.send(new GetCommand({ TableName: config.tableName, Key, ConsistentRead: true }));
      const [{ Item: subscription }, { Item: expiry }] = await Promise.all([read(webhookKeys.webhook(organizationId, webhook.id)), read(expiryKey)]);
      return { subscription: subscription?.expiresAt as string | null, expiryItem: (expiry?.expiresAt as string | undefined) ?? null };
    };
    expect(await stored()).toEqual({ subscription: first, expiryItem: first });

    // Every write that carries the expiry item fails, before it reaches the table, as a store that does not answer.
    const FAULT = 'expiryWriteFails';
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const writes = /^(Put|Update|Delete)Item|^TransactWriteItems/.test(String(context.commandName));
        if (writes && JSON.stringify(args.input).includes(expiryKey.sk)) throw Object.assign(new Error('Connection timed out after 3000 ms'), { name: 'TimeoutError', $metadata: {} });
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    try {
      for (const expiresAt of [inHours(5), null]) {
        const refused = await client.put(`/v1/webhooks/${webhook.id}`, { expiresAt, description: 'moved' });
        expect(refused.status).toBe(503);
        expect(await stored()).toEqual({ subscription: first, expiryItem: first });
      }
    } finally {
      dynamo.middlewareStack.remove(FAULT);
    }
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ description: 'CRM sync', expiresAt: first });

    const later = inHours(5);
    expect((await client.put(`/v1/webhooks/${webhook.id}`, { expiresAt: later, description: 'moved' })).body.webhook).toMatchObject({ description: 'moved', expiresAt: later });
    expect(await stored()).toEqual({ subscription: later, expiryItem: later });
    expect((await client.put(`/v1/webhooks/${webhook.id}`, { expiresAt: null })).body.webhook).toMatchObject({ description: 'moved', expiresAt: null });
    expect(await stored()).toEqual({ subscription: null, expiryItem: null });
  });

  it('enables an expired subscription again only with a later expiresAt, or null; subscribing again makes a new one meanwhile', async () => {
    const { client, organizationId } = await api.organization();
    const webhook = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/renew', events: ['lead.created'], expiresAt: inHours(1) })).body.webhook;
    await expiredAMinuteAgo(organizationId, webhook.id);
    const again = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/renew', events: ['lead.created'] });
    expect(again.status).toBe(201);
    expect(again.body.webhook.id).not.toBe(webhook.id);

    const refused = await client.put(`/v1/webhooks/${webhook.id}`, { isEnabled: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'expiresAt', message: expect.stringContaining('expiresAt has passed') }]);
    const later = inHours(2);
    expect((await client.put(`/v1/webhooks/${webhook.id}`, { expiresAt: later })).body.webhook).toMatchObject({ isEnabled: true, disabledReason: null, expiresAt: later });
    expect((await client.post(`/v1/events/${newId('evt')}/redeliver`, { webhookId: webhook.id })).status).toBe(404);
  });

  it('answers 409 WEBHOOK_DISABLED to a redelivery to a subscription past its expiresAt', async () => {
    const { client, organizationId } = await api.organization();
    const webhook = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/redeliver', events: ['lead.created'], expiresAt: inHours(1) })).body.webhook;
    const event = await storedLeadCreated(organizationId, '77', 'expired-redelivery@example.com');
    await expiredAMinuteAgo(organizationId, webhook.id);
    const res = await client.post(`/v1/events/${event.id}/redeliver`, { webhookId: webhook.id });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('WEBHOOK_DISABLED');
  });
});

describe('GET /v1/webhooks?url=', () => {
  it('lists only the organization’s subscriptions to that url exactly, newest first, paged and counted', async () => {
    const a = await api.organization();
    const b = await api.organization();
    const url = 'https://hooks.example.com/platform?hook=1';
    const older = await subscribe(a.client, url, ['lead.created']);
    await subscribe(a.client, 'https://hooks.example.com/platform?hook=2', ['lead.created']);
    await subscribe(a.client, 'https://hooks.example.com/platform', ['lead.created']);
    const newer = await subscribe(a.client, url, ['*']);
    await subscribe(b.client, url, ['lead.created']);
    const query = `/v1/webhooks?url=${encodeURIComponent(url)}`;
    const listed = (await a.client.get(query)).body;
    expect(listed.webhooks.map((webhook: { id: string }) => webhook.id)).toEqual([newer.id, older.id]);
    expect(listed).toMatchObject({ totalCount: 2, totalPages: 1, currentPage: 1 });
    expect(listed.webhooks[0]).toEqual((await a.client.get(`/v1/webhooks/${newer.id}`)).body.webhook);
    const paged = (await a.client.get(`${query}&limit=1&page=2`)).body;
    expect(paged).toMatchObject({ webhooks: [{ id: older.id }], totalCount: 2, totalPages: 2, currentPage: 2 });
    expect((await a.client.get(`/v1/webhooks?url=${encodeURIComponent('https://hooks.example.com/none')}`)).body).toMatchObject({ webhooks: [], totalCount: 0 });
  });

  it('answers 400 naming url for one that is not a URL, and naming updatedSince with it', async () => {
    const { client } = await api.organization();
    const bad = await client.get('/v1/webhooks?url=hooks.example.com');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['url']);
    const synced = await client.get(`/v1/webhooks?url=${encodeURIComponent('https://hooks.example.com/a')}&updatedSince=2026-01-01T00:00:00.000Z`);
    expect(synced.status).toBe(400);
    expect(synced.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['updatedSince']);
  });
});

describe('webhook deliveries', () => {
  it('delivers each event type a subscription asked for, signed so the standardwebhooks package verifies it, and nothing else', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created', 'policy.created']);
    const lead = (await client.post('/v1/leads', { name: 'Hook Lead', email: 'hook@example.com' })).body.lead;
    await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' });
    await client.post('/v1/policies', { title: 'Warranty', content: '12 months.' });
    await client.post('/v1/faqs', { question: 'Weekends?', answer: 'Saturdays.' });

    const received = await hook.waitFor(2);
    await api.eventsCaughtUp();
    const verified = received.map((delivery) => verify(webhook.secret, delivery));
    expect(verified.map((event) => event.type).sort()).toEqual(['lead.created', 'policy.created']);
    const leadEvent = verified.find((event) => event.type === 'lead.created')!;
    expect(leadEvent).toEqual({ id: expect.stringMatching(/^evt_/), type: 'lead.created', occurredAt: expect.stringMatching(ISO_MS), organizationId, data: lead });
    const delivery = received.find((item) => JSON.parse(item.body).type === 'lead.created')!;
    expect(delivery.headers['webhook-id']).toBe(leadEvent.id);
    expect(delivery.headers['content-type']).toBe('application/json');
    // The same event as the events list holds.
    expect((await client.get('/v1/events?type=lead.created')).body.events).toEqual([leadEvent]);
    expect(hook.received).toHaveLength(2);
  });

  it('fails verification for a tampered body, a wrong secret and a timestamp older than 5 minutes', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    await client.post('/v1/leads', { name: 'Tamper Proof', email: 'tamper@example.com' });
    const [delivery] = await hook.waitFor(1);
    expect(verify(webhook.secret, delivery!)).toMatchObject({ type: 'lead.created' });
    expect(() => verify(webhook.secret, { ...delivery!, body: delivery!.body.replace('Tamper', 'Tamper2') })).toThrow(/signature/i);
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, delivery!)).toThrow(/signature/i);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 6 * 60_000);
      expect(() => verify(webhook.secret, delivery!)).toThrow(/too old/i);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries a receiver that fails twice with backoff: the third attempt gets the event with the same webhook-id, and every attempt is logged', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    hook.answerWith(500, 503);
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    await client.post('/v1/leads', { name: 'Retry Lead', email: 'retry@example.com' });

    const received = await hook.waitFor(3);
    expect(received.map((delivery) => delivery.answered)).toEqual([500, 503, 200]);
    expect(new Set(received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
    expect(received.map((delivery) => verify(webhook.secret, delivery).id)).toEqual(Array(3).fill(received[0]!.headers['webhook-id']));
    const sentAt = received.map((delivery) => Number(delivery.headers['webhook-timestamp']));
    expect(sentAt[2]! - sentAt[0]!).toBeGreaterThanOrEqual(2);

    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.totalCount).toBe(3), WAIT);
    const { deliveries } = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body;
    expect(deliveries.map((attempt: { attempt: number; status: string; statusCode: number }) => [attempt.attempt, attempt.status, attempt.statusCode])).toEqual([
      [3, 'SUCCEEDED', 200],
      [2, 'FAILED', 503],
      [1, 'FAILED', 500],
    ]);
    for (const attempt of deliveries) expect(attempt).toMatchObject({ eventId: received[0]!.headers['webhook-id'], eventType: 'lead.created', error: null, durationMs: expect.any(Number) });
    expect(deliveries[0].nextAttemptAt).toBeNull();
    expect(Date.parse(deliveries[1].nextAttemptAt)).toBeGreaterThan(Date.parse(deliveries[1].attemptedAt));
    // Its success ends the failing: no longer failing since its first failure.
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ isEnabled: true, disabledReason: null, failingSince: null });
  });

  it('records a receiver that does not listen as an error without a status code', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    await hook.close();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    await client.post('/v1/leads', { name: 'Nobody Home', email: 'nobody@example.com' });
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.totalCount).toBeGreaterThan(0), { timeout: 10_000 });
    // Its retry, a second later, may be recorded by the time this reads: the first attempt is found by its number.
    const { deliveries } = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body;
    const attempt = deliveries.find((delivery: { attempt: number }) => delivery.attempt === 1);
    expect(attempt).toMatchObject({ attempt: 1, status: 'FAILED', statusCode: null, error: 'connection refused', nextAttemptAt: expect.stringMatching(ISO_MS) });
    // Whatever else is listed is that retry: the same event, refused the same way.
    expect(deliveries.map((delivery: { attempt: number }) => delivery.attempt).sort()).toEqual(deliveries.length === 1 ? [1] : [1, 2]);
    for (const delivery of deliveries) expect(delivery).toMatchObject({ eventId: attempt.eventId, status: 'FAILED', statusCode: null, error: 'connection refused' });
    // Failing since its first failed attempt, and still on.
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ isEnabled: true, failingSince: attempt.attemptedAt });
    await client.delete(`/v1/webhooks/${webhook.id}`);
  });

  it('counts a receiver that does not answer in time as failed, and retries it', async () => {
    const { client } = await api.organization();
    // Takes the request and never answers.
    const silent = await answering(() => undefined);
    const timeoutMs = webhookSettings.timeoutMs;
    // The deployed 10 s, shortened so the test need not wait it out.
    webhookSettings.timeoutMs = 300;
    try {
      const webhook = await subscribe(client, silent.url, ['lead.created']);
      await client.post('/v1/leads', { name: 'Slow Receiver', email: 'slow@example.com' });
      await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.totalCount).toBeGreaterThanOrEqual(2), { timeout: 15_000 });
      const { deliveries } = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body;
      expect(deliveries.at(-1)).toMatchObject({ attempt: 1, status: 'FAILED', statusCode: null, error: 'no answer within 0.3 s' });
      expect(silent.requests()).toBeGreaterThanOrEqual(2);
      await client.delete(`/v1/webhooks/${webhook.id}`);
    } finally {
      webhookSettings.timeoutMs = timeoutMs;
    }
  });

  it('counts an attempt the receiver answered 200 in time as succeeded, though the body of its answer was still arriving at the timeout', async () => {
    // Standard Webhooks: a delivery succeeded if it was answered with a 2xx status. This one answered 200 at once: a
    // retry would deliver the event twice.
    const { client } = await api.organization();
    const streaming = await answering((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('accepted; ');
      // …and the body never ends.
    });
    const webhook = await subscribe(client, streaming.url, ['lead.created']);
    const timeoutMs = webhookSettings.timeoutMs;
    // The deployed 10 s, shortened so the test need not wait it out.
    webhookSettings.timeoutMs = 500;
    try {
      const res = await client.post(`/v1/webhooks/${webhook.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body.attempt).toMatchObject({ status: 'SUCCEEDED', statusCode: 200, error: null });
    } finally {
      webhookSettings.timeoutMs = timeoutMs;
    }
  });

  it('disables a subscription whose receiver answers 410 Gone at once, saying why, and sends it nothing more', async () => {
    // Standard Webhooks, "Delivery success and failure": 410 Gone means the receiver no longer wants these webhooks;
    // the sender should disable the endpoint and stop sending to it.
    const { client } = await api.organization();
    retryBaseOf(0.2);
    const hook = await receiver();
    hook.answerWith(410, 410, 410, 410);
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    await client.post('/v1/leads', { name: 'Gone Receiver', email: 'gone@example.com' });
    await hook.waitFor(1);

    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook.isEnabled).toBe(false), WAIT);
    const { webhook: disabled } = (await client.get(`/v1/webhooks/${webhook.id}`)).body;
    expect(disabled).toMatchObject({ isEnabled: false, disabledReason: 'GONE' });
    // The organization hears of it: a webhook.disabled event with the subscription as it now reads, naming why.
    await api.eventsCaughtUp();
    const { events } = (await client.get('/v1/events?type=webhook.disabled')).body;
    expect(events).toEqual([expect.objectContaining({ type: 'webhook.disabled', data: disabled })]);
    // A retry would come 0.2 s (±20 %) after the attempt: none follows, and the attempt promises none.
    await sleep(1_000);
    expect(hook.received).toHaveLength(1);
    expect(await deliveriesOf(client, webhook.id)).toMatchObject([{ attempt: 1, status: 'FAILED', statusCode: 410, nextAttemptAt: null }]);
    expect((deliveryQueue() as LocalDeliveryQueue).deadLettered.filter((job) => job.webhookId === webhook.id)).toEqual([]);
    // Nor does a later event reach it.
    await client.post('/v1/leads', { name: 'After Gone', email: 'after-gone@example.com' });
    await api.eventsCaughtUp();
    expect(hook.received).toHaveLength(1);
  });

  it('keeps a subscription enabled when a URL it no longer posts to answers 410 Gone: only its receiver may ask for no more', async () => {
    // Standard Webhooks: 410 Gone is the *endpoint* saying it wants no more webhooks. The subscription moved to another
    // URL while this attempt was in flight, so the old URL's 410 says nothing about where it now posts.
    const { client, organizationId } = await api.organization();
    const current = await receiver();
    let webhookId = '';
    const former = await answering((response) => {
      void client.patch(`/v1/webhooks/${webhookId}`, { url: current.url }).then((moved) => {
        expect(moved.status).toBe(200);
        response.writeHead(410).end();
      });
    });
    const webhook = await subscribe(client, former.url, ['lead.created']);
    webhookId = webhook.id;
    const at = new Date().toISOString();
    const event = { id: newId('evt'), type: 'lead.created', occurredAt: at, organizationId, data: {} };
    // The retry the attempt queues (to the new URL) is no part of this test.
    const queued = vi.spyOn(deliveryQueue(), 'send').mockResolvedValue(undefined);
    try {
      await deliver({ organizationId, webhookId: webhook.id, event, attempt: 1, firstQueuedAt: at, notBefore: at });
    } finally {
      queued.mockRestore();
    }
    expect(former.requests()).toBe(1);
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ url: current.url, isEnabled: true, disabledReason: null });
  });

  it.each([503, 429])('waits at least the Retry-After (delta-seconds) a %i asks for before retrying, and shows it as the next attempt', async (status) => {
    // Standard Webhooks: a Retry-After (as on 503 Service Unavailable) should be taken into account when scheduling
    // the next attempt; 429 asks the sender to throttle.
    const { client } = await api.organization();
    retryBaseOf(0.2);
    const busy = await answering((response, count) => {
      if (count === 1) response.writeHead(status, { 'retry-after': '120' }).end();
      else response.writeHead(200).end('ok');
    });
    const webhook = await subscribe(client, busy.url, ['lead.created']);
    await client.post('/v1/leads', { name: 'Busy Receiver', email: `busy${status}@example.com` });
    await vi.waitFor(async () => expect(await deliveriesOf(client, webhook.id)).toHaveLength(1), WAIT);

    const [attempt] = await deliveriesOf(client, webhook.id);
    expect(attempt).toMatchObject({ attempt: 1, status: 'FAILED', statusCode: status });
    expect(Date.parse(attempt!.nextAttemptAt!) - Date.parse(attempt!.attemptedAt!)).toBeGreaterThanOrEqual(120_000);
    // The backoff alone (0.2 s, ±20 %) would have retried by now.
    await sleep(1_000);
    expect(busy.requests()).toBe(1);
  });

  it('waits for a Retry-After given as an HTTP-date, at most the schedule’s longest wait (an hour) for a longer one, and dead-letters a job it would hold past the 24 hours', async () => {
    const { client, organizationId } = await api.organization();
    const asks: string[] = [];
    const busy = await answering((response, count) => response.writeHead(503, { 'retry-after': asks[count - 1]! }).end());
    const webhook = await subscribe(client, busy.url, ['lead.created']);
    const job = (id: string, firstQueuedAt = new Date().toISOString()): DeliveryJob => ({
      organizationId,
      webhookId: webhook.id,
      event: { id, type: 'lead.created', occurredAt: firstQueuedAt, organizationId, data: {} },
      attempt: 1,
      firstQueuedAt,
      notBefore: new Date().toISOString(),
    });
    const attemptOf = async (eventId: string) => (await deliveriesOf(client, webhook.id)).find((attempt) => attempt.eventId === eventId)!;
    // The retries these attempts queue are due long after this file has ended.
    const queued = vi.spyOn(deliveryQueue(), 'send');
    const retriesQueued = () => queued.mock.calls.flat(2).filter((retry) => retry.webhookId === webhook.id).map((retry) => retry.event.id);
    try {
      const dated = newId('evt');
      const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 600_000);
      asks.push(at.toUTCString());
      await deliver(job(dated));
      expect(Date.parse((await attemptOf(dated)).nextAttemptAt!)).toBeGreaterThanOrEqual(at.getTime());

      const tooLong = newId('evt');
      asks.push(String(24 * 3_600));
      await deliver(job(tooLong));
      const capped = await attemptOf(tooLong);
      const waitMs = Date.parse(capped.nextAttemptAt!) - Date.parse(capped.attemptedAt!);
      expect(waitMs).toBeGreaterThanOrEqual(3_600_000 - 1_000);
      expect(waitMs).toBeLessThanOrEqual(3_600_000 + 1_000);
      expect(retriesQueued()).toEqual([dated, tooLong]);

      // Half an hour of the 24 hours left, and asked to wait an hour: no retry fits, so the job is dead-lettered.
      const late = newId('evt');
      asks.push('3600');
      await deliver(job(late, new Date(Date.now() - 23.5 * 3_600_000).toISOString()));
      expect(await attemptOf(late)).toMatchObject({ status: 'FAILED', statusCode: 503, nextAttemptAt: null });
      expect((deliveryQueue() as LocalDeliveryQueue).deadLettered.filter((dead) => dead.webhookId === webhook.id)).toMatchObject([{ event: { id: late }, reason: expect.stringContaining('HTTP 503') }]);
      expect(retriesQueued()).toEqual([dated, tooLong]);
    } finally {
      queued.mockRestore();
    }
  });

  it("never delivers organization A's events to organization B's subscription", async () => {
    const a = await api.organization();
    const b = await api.organization();
    // One receiver behind both organizations' subscriptions: whose secret signed a delivery says which subscription sent it.
    const hook = await receiver();
    const webhookA = await subscribe(a.client, hook.url, ['lead.created']);
    const webhookB = await subscribe(b.client, hook.url, ['lead.created']);
    await a.client.post('/v1/leads', { name: 'Only For A', email: 'a@example.com' });
    await b.client.post('/v1/leads', { name: 'Only For B', email: 'b@example.com' });
    // The control: B's own event, committed after A's, reaches B's subscription (and its attempt is recorded), so a
    // leak of A's event to B, which would have been queued ahead of it, would have arrived by now.
    await vi.waitFor(() => expect(hook.received.filter((delivery) => signedBy(webhookB.secret, delivery))).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(async () => expect((await b.client.get(`/v1/webhooks/${webhookB.id}/deliveries`)).body.totalCount).toBe(1), WAIT);
    const throughB = hook.received.filter((delivery) => signedBy(webhookB.secret, delivery)).map((delivery) => JSON.parse(delivery.body));
    expect(throughB).toMatchObject([{ organizationId: b.organizationId, data: { email: 'b@example.com' } }]);
    await hook.waitFor(2);
    const throughA = hook.received.filter((delivery) => signedBy(webhookA.secret, delivery)).map((delivery) => JSON.parse(delivery.body));
    expect(throughA).toMatchObject([{ organizationId: a.organizationId, data: { email: 'a@example.com' } }]);
    expect(hook.received).toHaveLength(2);
  });

  it("delivers each event of one stream batch mixing two organizations' changes only to its own organization's subscriptions", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const leadA1 = (await a.client.post('/v1/leads', { name: 'First OfA', email: 'a1@example.com' })).body.lead;
    const leadB = (await b.client.post('/v1/leads', { name: 'Only OfB', email: 'b1@example.com' })).body.lead;
    const leadA2 = (await a.client.post('/v1/leads', { name: 'Second OfA', email: 'a2@example.com' })).body.lead;
    // The stream has handled these creates before anyone subscribed, so only the batch below reaches the subscriptions.
    await api.eventsCaughtUp();
    const [hookA, hookB] = [await receiver(), await receiver()];
    const webhookA = await subscribe(a.client, hookA.url, ['lead.created']);
    const webhookB = await subscribe(b.client, hookB.url, ['lead.created']);

    // One batch as the stream hands it over: the stored items' inserts of A, B and A again, in the SDK's record
    // shape turned into Lambda's by the same conversion the local stream consumer uses.
    const stored = async (organizationId: string, leadId: string) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, leadId) }))).Item!;
    let sequence = 900_000_000_000_000_000_000n;
    const insertRecord = (item: Record<string, unknown>) => {
      const sequenceNumber = String(++sequence);
      return insertRecordOf(item, sequenceNumber, `mixed-${sequenceNumber}`);
    };
    const items = [await stored(a.organizationId, leadA1.id), await stored(b.organizationId, leadB.id), await stored(a.organizationId, leadA2.id)];
    expect(items.map((item) => String(item.pk).split('#')[1])).toEqual([a.organizationId, b.organizationId, a.organizationId]);
    await recordStreamBatch({ Records: items.map(insertRecord) });

    const through = (hook: Receiver) =>
      hook.received
        .map((delivery) => JSON.parse(delivery.body) as { organizationId: string; data: { email: string } })
        .map((event) => [event.organizationId, event.data.email])
        .sort();
    await vi.waitFor(() => expect(hookA.received.length + hookB.received.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(hookA.received.every((delivery) => signedBy(webhookA.secret, delivery))).toBe(true);
    expect(hookB.received.every((delivery) => signedBy(webhookB.secret, delivery))).toBe(true);
    expect(through(hookA)).toEqual([
      [a.organizationId, 'a1@example.com'],
      [a.organizationId, 'a2@example.com'],
    ]);
    expect(through(hookB)).toEqual([[b.organizationId, 'b1@example.com']]);
    // Every job the batch queued has been attempted and logged; nothing more arrived.
    await vi.waitFor(async () => expect((await a.client.get(`/v1/webhooks/${webhookA.id}/deliveries`)).body.totalCount).toBe(2), WAIT);
    await vi.waitFor(async () => expect((await b.client.get(`/v1/webhooks/${webhookB.id}/deliveries`)).body.totalCount).toBe(1), WAIT);
    expect([hookA.received.length, hookB.received.length]).toEqual([2, 1]);
    // Each event is recorded under its own organization too.
    await api.eventsCaughtUp();
    const emailsOf = async (client: Client) => new Set((await client.get('/v1/events?type=lead.created')).body.events.map((event: { data: { email: string } }) => event.data.email));
    expect(await emailsOf(a.client)).toEqual(new Set(['a1@example.com', 'a2@example.com']));
    expect(await emailsOf(b.client)).toEqual(new Set(['b1@example.com']));
  });

  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const rotated = await client.post(`/v1/webhooks/${webhook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.webhook.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(webhook.secret);
    await client.post('/v1/leads', { name: 'Rotated Lead', email: 'rotated@example.com' });
    const [delivery] = await hook.waitFor(1);
    expect(String(delivery!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(newSecret, delivery!)).toMatchObject({ type: 'lead.created' });
    expect(verify(webhook.secret, delivery!)).toMatchObject({ type: 'lead.created' });
  });

  it('after three rotations signs with the current secret and the one it replaced only, and keeps no other', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const secrets = [webhook.secret];
    for (let rotation = 1; rotation <= 3; rotation++) {
      const rotated = await client.post(`/v1/webhooks/${webhook.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      secrets.push(rotated.body.webhook.secret as string);
    }
    await client.post('/v1/leads', { name: 'Thrice Rotated', email: 'thrice@example.com' });
    const [delivery] = await hook.waitFor(1);
    expect(String(delivery!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(secrets[3]!, delivery!)).toMatchObject({ type: 'lead.created' });
    expect(verify(secrets[2]!, delivery!)).toMatchObject({ type: 'lead.created' });
    // The secret of two rotations ago, and the first, sign nothing any more.
    expect(signedBy(secrets[1]!, delivery!)).toBe(false);
    expect(signedBy(secrets[0]!, delivery!)).toBe(false);

    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id), ConsistentRead: true }));
    expect((await signingSecretsOf(organizationId, fromWebhookItem(Item!))).map((s) => s.secret)).toEqual([secrets[3], secrets[2]]);
    expect(Item!.rotatedAt).toHaveLength(3);
    // The sealed secrets count their bytes, as DynamoDB counts a binary attribute's.
    expect(Buffer.byteLength(JSON.stringify(Item, (_, value) => (value instanceof Uint8Array ? 'x'.repeat(value.length) : value)))).toBeLessThan(2_048);
  });

  it('answers a fourth rotation within the hour 429 TOO_MANY_ROTATIONS with Retry-After and changes nothing; a rotation an hour old no longer counts', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    let current = webhook.secret;
    for (let rotation = 1; rotation <= 3; rotation++) current = (await client.post(`/v1/webhooks/${webhook.id}/rotate-secret`)).body.webhook.secret;
    const key = { TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id), ConsistentRead: true };
    const before = (await dynamo.send(new GetCommand(key))).Item!;

    const refused = await client.post(`/v1/webhooks/${webhook.id}/rotate-secret`);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('TOO_MANY_ROTATIONS');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect((await dynamo.send(new GetCommand(key))).Item).toEqual(before);
    await client.post('/v1/leads', { name: 'Still Signed', email: 'still-signed@example.com' });
    const [delivery] = await hook.waitFor(1);
    expect(verify(current, delivery!)).toMatchObject({ type: 'lead.created' });

    // The hour slides: with the oldest rotation 61 minutes ago, two remain in the hour and one more is let through;
    // then three are, the oldest 59 minutes ago, and the next must wait the minute it has left.
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key.Key, UpdateExpression: 'SET rotatedAt = :at', ExpressionAttributeValues: { ':at': [minutesAgo(61), minutesAgo(59), minutesAgo(58)] } }));
    expect((await client.post(`/v1/webhooks/${webhook.id}/rotate-secret`)).status).toBe(200);
    const again = await client.post(`/v1/webhooks/${webhook.id}/rotate-secret`);
    expect(again.status).toBe(429);
    // The minute the oldest of the hour's rotations has left, less the seconds this test took since setting it.
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(50);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('stops delivering to a subscription that is disabled or deleted', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    const disabled = await subscribe(client, hook.url, ['lead.created']);
    await client.put(`/v1/webhooks/${disabled.id}`, { isEnabled: false });
    const deleted = await subscribe(client, hook.url, ['lead.created']);
    await client.delete(`/v1/webhooks/${deleted.id}`);
    // The control: an enabled subscription on the same receiver, created after the others, so its job for the
    // event queues behind any they would get.
    const enabled = await subscribe(client, hook.url, ['lead.created']);
    await client.post('/v1/leads', { name: 'Quiet Lead', email: 'quiet@example.com' });
    const [delivery] = await hook.waitFor(1);
    expect(verify(enabled.secret, delivery!)).toMatchObject({ type: 'lead.created', data: { email: 'quiet@example.com' } });
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${enabled.id}/deliveries`)).body.totalCount).toBe(1), WAIT);
    expect(hook.received).toHaveLength(1);
    expect(signedBy(disabled.secret, hook.received[0]!)).toBe(false);
    expect(signedBy(deleted.secret, hook.received[0]!)).toBe(false);
    expect((await client.get(`/v1/webhooks/${disabled.id}/deliveries`)).body.totalCount).toBe(0);
  });

  it.each([
    ['disabled', { isEnabled: false }, 'not sent: the subscription was disabled before the retry was due'],
    ['no longer asking for the type', { events: ['lead.deleted'] }, 'not sent: the subscription stopped asking for lead.created before the retry was due'],
  ])('records a retry dropped because the subscription was %s as an attempt of its own, not sent, so the log never promises an attempt that will not come', async (_, change, error) => {
    // A failed attempt whose retry is due shows nextAttemptAt; a subscription disabled or unsubscribed meanwhile gets
    // nothing more, pending retries included, as a redelivery's PENDING record is rewritten to say it was not sent.
    const { client } = await api.organization();
    const hook = await receiver();
    hook.answerWith(500, 500, 500);
    const retryBase = webhookSettings.retryBaseSeconds;
    // A few seconds between attempts, so the subscription changes before the retry is due.
    webhookSettings.retryBaseSeconds = 3;
    try {
      const webhook = await subscribe(client, hook.url, ['lead.created']);
      await client.post('/v1/leads', { name: 'Dropped Retry', email: 'dropped@example.com' });
      await vi.waitFor(async () => expect(await deliveriesOf(client, webhook.id)).toHaveLength(1), WAIT);
      expect((await client.patch(`/v1/webhooks/${webhook.id}`, change)).status).toBe(200);
      const [first] = await deliveriesOf(client, webhook.id);
      expect(first!.nextAttemptAt).not.toBeNull();
      // Past the promised time, with room for the queue.
      await sleep(Date.parse(first!.nextAttemptAt!) - Date.now() + 1_500);
      expect(hook.received).toHaveLength(1);

      const log = await deliveriesOf(client, webhook.id);
      expect(log).toMatchObject([
        { eventId: first!.eventId, attempt: 2, status: 'FAILED', statusCode: null, error, nextAttemptAt: null },
        { eventId: first!.eventId, attempt: 1, status: 'FAILED', statusCode: 500 },
      ]);
      const overdue = log.filter(
        (attempt) => attempt.nextAttemptAt !== null && Date.parse(attempt.nextAttemptAt) < Date.now() && !log.some((later) => later.eventId === attempt.eventId && later.attempt === attempt.attempt + 1),
      );
      expect(overdue).toEqual([]);
    } finally {
      webhookSettings.retryBaseSeconds = retryBase;
    }
  });

  it('disables a subscription whose deliveries have failed for 24 hours, saying why', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    hook.answerWith(500);
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    await failingForADay(organizationId, webhook.id);
    await client.post('/v1/leads', { name: 'Last Straw', email: 'last@example.com' });
    await hook.waitFor(1);
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook.isEnabled).toBe(false), WAIT);
    const { webhook: disabled } = (await client.get(`/v1/webhooks/${webhook.id}`)).body;
    expect(disabled.disabledReason).toBe('FAILING');
    await api.eventsCaughtUp();
    expect((await client.get('/v1/events?type=webhook.disabled')).body.events).toEqual([expect.objectContaining({ data: disabled })]);
    const reenabled = (await client.put(`/v1/webhooks/${webhook.id}`, { isEnabled: true })).body.webhook;
    expect(reenabled).toMatchObject({ isEnabled: true, disabledReason: null });
  });

  it('restarts the failure clock when the url changes: the old receiver’s day of failures does not disable the new one at its first', async () => {
    const { client, organizationId } = await api.organization();
    const old = await receiver();
    old.answerWith(500);
    const webhook = await subscribe(client, old.url, ['lead.created']);
    const dayAgo = await failingForADay(organizationId, webhook.id);
    const moved = await receiver();
    moved.answerWith(500);
    expect((await client.patch(`/v1/webhooks/${webhook.id}`, { url: moved.url })).status).toBe(200);
    const postedAt = Date.now();
    await client.post('/v1/leads', { name: 'First Failure', email: 'first-failure@example.com' });
    await moved.waitFor(1);
    // The new receiver's first failure starts its own clock, at that attempt, and the subscription stays enabled to be retried.
    await vi.waitFor(async () => {
      const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id), ConsistentRead: true }));
      expect(Item!.failingSince).not.toBe(dayAgo);
      expect(Date.parse(Item!.failingSince)).toBeGreaterThanOrEqual(postedAt);
      expect(Date.parse(Item!.failingSince)).toBeLessThanOrEqual(Date.now());
    }, WAIT);
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ isEnabled: true, disabledReason: null });
    expect(old.received).toHaveLength(0);
  });

  it('keeps the failure clock when the url it has is sent again, as a form that saves every field does', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const dayAgo = await failingForADay(organizationId, webhook.id);
    expect((await client.patch(`/v1/webhooks/${webhook.id}`, { url: hook.url, description: 'Saved again' })).status).toBe(200);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id), ConsistentRead: true }));
    expect(Item!.failingSince).toBe(dayAgo);
  });

  it('dead-letters a job whose retries would run past 24 hours after its first attempt', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    hook.answerWith(500);
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const event = { id: 'evt_01JZZZZZZZZZZZZZZZZZZZZZZZ', type: 'lead.created' as const, occurredAt: new Date().toISOString(), organizationId, data: {} };
    const firstQueuedAt = new Date(Date.now() - 24 * 3_600_000 + 1_000).toISOString();
    await deliver({ organizationId, webhookId: webhook.id, event, attempt: 12, firstQueuedAt, notBefore: new Date().toISOString() });
    const { deliveries } = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body;
    expect(deliveries).toMatchObject([{ eventId: event.id, attempt: 12, status: 'FAILED', statusCode: 500, nextAttemptAt: null }]);
    expect((deliveryQueue() as LocalDeliveryQueue).deadLettered.filter((job) => job.event.id === event.id)).toMatchObject([{ webhookId: webhook.id, reason: expect.stringContaining('HTTP 500') }]);
  });
});

/** The secret with its last base64 character changed in the bits that reach the key (not only the padding bits). */
function withLastCharacterChanged(secret: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const [, head, last, padding] = /^(.*)(.)(=*)$/.exec(secret)!;
  return `${head}${alphabet[alphabet.indexOf(last!) ^ 32]}${padding}`;
}

describe('POST /v1/webhooks/{webhookId}/test', () => {
  it('sends a signed webhook.test now and answers the attempt; the standardwebhooks package verifies it, and refuses it with a changed secret', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const res = await client.post(`/v1/webhooks/${webhook.id}/test`);
    expect(res.status).toBe(200);
    const { attempt } = res.body;
    expect(attempt).toEqual({
      id: expect.stringMatching(/^delivery_/),
      eventId: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
      eventType: 'webhook.test',
      attempt: 1,
      status: 'SUCCEEDED',
      statusCode: 200,
      error: null,
      durationMs: expect.any(Number),
      attemptedAt: expect.stringMatching(ISO_MS),
      nextAttemptAt: null,
    });
    // Sent before the answer, not queued.
    expect(hook.received).toHaveLength(1);
    const [ping] = hook.received;
    expect(verify(webhook.secret, ping!)).toEqual({ id: attempt.eventId, type: 'webhook.test', occurredAt: expect.stringMatching(ISO_MS), organizationId, data: { webhookId: webhook.id, message: expect.any(String) } });
    expect(ping!.headers['webhook-id']).toBe(attempt.eventId);
    const tampered = withLastCharacterChanged(webhook.secret);
    expect(tampered).not.toBe(webhook.secret);
    expect(signedBy(tampered, ping!)).toBe(false);

    // Recorded among the deliveries, not stored as an event.
    expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries).toEqual([attempt]);
    await api.eventsCaughtUp();
    expect((await client.get('/v1/events')).body.totalCount).toBe(0);
    expect((await client.get(`/v1/events/${attempt.eventId}`)).status).toBe(404);
  });

  it('answers 200 describing the failed attempt for a receiver answering 500 and for one that is down, and retries neither', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    hook.answerWith(500);
    const webhook = await subscribe(client, hook.url);
    const failing = await client.post(`/v1/webhooks/${webhook.id}/test`);
    expect(failing.status).toBe(200);
    expect(failing.body.attempt).toMatchObject({ eventType: 'webhook.test', status: 'FAILED', statusCode: 500, error: null, nextAttemptAt: null });

    const gone = await receiver();
    await gone.close();
    const down = await subscribe(client, gone.url);
    const refused = await client.post(`/v1/webhooks/${down.id}/test`);
    expect(refused.status).toBe(200);
    expect(refused.body.attempt).toMatchObject({ status: 'FAILED', statusCode: null, error: 'connection refused', nextAttemptAt: null });

    // A retry would have come after the 1 s local backoff; the subscription is not marked failing either.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(hook.received).toHaveLength(1);
    const stored = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id) }));
    expect(stored.Item).toMatchObject({ id: webhook.id, failingSince: null });
  });

  it('keeps a subscription enabled when its test event is answered 410 Gone: a test changes nothing for real deliveries', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    hook.answerWith(410);
    const webhook = await subscribe(client, hook.url);
    const res = await client.post(`/v1/webhooks/${webhook.id}/test`);
    expect(res.body.attempt).toMatchObject({ status: 'FAILED', statusCode: 410, nextAttemptAt: null });
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook).toMatchObject({ isEnabled: true, disabledReason: null });
  });

  it("answers 404 for another organization's webhook, sending nothing", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(a.client, hook.url);
    const res = await b.client.post(`/v1/webhooks/${webhook.id}/test`);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ status: 404, message: 'Webhook not found', code: 'NOT_FOUND' });
    expect(hook.received).toEqual([]);
  });
});

describe('POST /v1/events/{eventId}/redeliver', () => {
  it('queues the stored event again for one subscription: 202 PENDING, then the same webhook-id with a new timestamp and signature', async () => {
    const { client } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.updated']);
    const lead = (await client.post('/v1/leads', { name: 'Redo Lead', email: 'redo@example.com' })).body.lead;
    await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' });
    const [first] = await hook.waitFor(1);
    const event = verify(webhook.secret, first!) as { id: string; type: string; previousAttributes?: unknown };
    // Webhook deliveries carry previousAttributes too: the payload is the event.
    expect(event).toMatchObject({ type: 'lead.updated', previousAttributes: { status: 'NEW' } });
    // The timestamp is in seconds: let one pass, so a new one can differ.
    await vi.waitFor(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(Number(first!.headers['webhook-timestamp'])), { timeout: 2_000, interval: 50 });

    const res = await client.post(`/v1/events/${event.id}/redeliver`, { webhookId: webhook.id });
    expect(res.status).toBe(202);
    const { delivery } = res.body;
    expect(delivery).toEqual({
      id: expect.stringMatching(/^delivery_/),
      eventId: event.id,
      eventType: 'lead.updated',
      attempt: 1,
      status: 'PENDING',
      statusCode: null,
      error: null,
      durationMs: null,
      attemptedAt: null,
      nextAttemptAt: expect.stringMatching(ISO_MS),
    });
    const [, second] = await hook.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['webhook-timestamp']).not.toBe(first!.headers['webhook-timestamp']);
    expect(second!.headers['webhook-signature']).not.toBe(first!.headers['webhook-signature']);
    expect(verify(webhook.secret, second!)).toEqual(event);

    // The PENDING record is the one the attempt completes.
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries?status=SUCCEEDED`)).body.deliveries.map((d: WebhookDelivery) => d.id)).toContain(delivery.id), { timeout: 5_000 });
    const completed = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries.find((d: WebhookDelivery) => d.id === delivery.id);
    expect(completed).toMatchObject({ status: 'SUCCEEDED', statusCode: 200, attemptedAt: expect.stringMatching(ISO_MS), nextAttemptAt: null });
    expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries?status=PENDING`)).body.totalCount).toBe(0);
  });

  it('leaves no PENDING record when the queue does not take the redelivery: it is FAILED, saying so, and the caller gets a 5xx', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const event = await storedLeadCreated(organizationId, '602', 'unqueued@example.com');
    const send = vi.spyOn(deliveryQueue(), 'send').mockRejectedValueOnce(new Error('SQS refused 1 delivery jobs: InternalError'));
    try {
      const res = await client.post(`/v1/events/${event.id}/redeliver`, { webhookId: webhook.id });
      expect(res.status).toBe(500);
    } finally {
      send.mockRestore();
    }
    const { deliveries } = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body;
    expect(deliveries).toMatchObject([{ eventId: event.id, status: 'FAILED', statusCode: null, error: expect.stringMatching(/^not sent: the delivery queue/), nextAttemptAt: null }]);
    expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries?status=PENDING`)).body.totalCount).toBe(0);
    expect(hook.received).toEqual([]);
  });

  it('marks a redelivery FAILED, sending nothing, when its subscription stops asking for the type before the attempt', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const event = await storedLeadCreated(organizationId, '601', 'late@example.com');
    // The attempt is held back until the subscription has changed: the job waits in the queue as a retry's would.
    const queue = deliveryQueue() as LocalDeliveryQueue;
    const send = vi.spyOn(queue, 'send').mockImplementationOnce(async () => undefined);
    const { delivery } = (await client.post(`/v1/events/${event.id}/redeliver`, { webhookId: webhook.id })).body;
    const [job] = send.mock.calls[0]![0];
    send.mockRestore();
    await client.patch(`/v1/webhooks/${webhook.id}`, { events: ['lead.deleted'] });
    await deliver(job!);
    const [record] = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries;
    expect(record).toMatchObject({ id: delivery.id, status: 'FAILED', statusCode: null, error: expect.stringMatching(/^not sent: /), nextAttemptAt: null });
    expect(hook.received).toEqual([]);
  });

  it('refuses an event 31 days old with 410 EVENT_EXPIRED, while one 29 days old is redelivered', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created']);
    const daysAgo = (days: number) => Date.now() - days * 86_400_000;
    const stored = (at: number, sequence: string) => ({ id: eventIdOf(at, sequence), type: 'lead.created' as const, occurredAt: new Date(at).toISOString(), organizationId, data: { email: `${sequence}@example.com` } });
    const [old, recent] = [stored(daysAgo(31), '501'), stored(daysAgo(29), '502')];
    await recordEvents([old, recent]);

    const refused = await client.post(`/v1/events/${old.id}/redeliver`, { webhookId: webhook.id });
    expect(refused.status).toBe(410);
    expect(refused.body.error).toMatchObject({ status: 410, code: 'EVENT_EXPIRED', message: expect.stringContaining('30 days') });
    expect((await client.post(`/v1/events/${recent.id}/redeliver`, { webhookId: webhook.id })).status).toBe(202);
    const [received] = await hook.waitFor(1);
    expect(received!.headers['webhook-id']).toBe(recent.id);
    expect(hook.received).toHaveLength(1);
  });

  it('answers 409 for a webhook not subscribed to the event type or disabled, 404 for an unknown or foreign event or webhook, and 400 naming webhookId', async () => {
    const a = await api.organization();
    const b = await api.organization();
    const hook = await receiver();
    const leadsOnly = await subscribe(a.client, hook.url, ['lead.created']);
    const policiesOnly = await subscribe(a.client, hook.url, ['policy.created']);
    await a.client.post('/v1/leads', { name: 'Once Only', email: 'once@example.com' });
    await hook.waitFor(1);
    const [event] = (await a.client.get('/v1/events?type=lead.created')).body.events;

    const unsubscribed = await a.client.post(`/v1/events/${event.id}/redeliver`, { webhookId: policiesOnly.id });
    expect(unsubscribed.status).toBe(409);
    expect(unsubscribed.body.error.code).toBe('NOT_SUBSCRIBED');
    await a.client.patch(`/v1/webhooks/${leadsOnly.id}`, { isEnabled: false });
    const disabled = await a.client.post(`/v1/events/${event.id}/redeliver`, { webhookId: leadsOnly.id });
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.code).toBe('WEBHOOK_DISABLED');
    await a.client.patch(`/v1/webhooks/${leadsOnly.id}`, { isEnabled: true });

    const bHook = await subscribe(b.client, hook.url, ['*']);
    expect((await b.client.post(`/v1/events/${event.id}/redeliver`, { webhookId: bHook.id })).body.error).toEqual({ status: 404, message: 'Event not found', code: 'NOT_FOUND' });
    await b.client.post('/v1/leads', { name: 'B Lead', email: 'b-lead@example.com' });
    await api.eventsCaughtUp();
    const [bEvent] = (await b.client.get('/v1/events?type=lead.created')).body.events;
    expect((await b.client.post(`/v1/events/${bEvent.id}/redeliver`, { webhookId: leadsOnly.id })).body.error).toEqual({ status: 404, message: 'Webhook not found', code: 'NOT_FOUND' });
    expect((await a.client.post(`/v1/events/${newId('evt')}/redeliver`, { webhookId: leadsOnly.id })).status).toBe(404);
    // An id that cannot exist is an unknown one (docs/decisions/api-conventions.md); a value of the wrong type is a 400.
    expect((await a.client.post(`/v1/events/${event.id}/redeliver`, { webhookId: 'webhook_nope' })).status).toBe(404);
    const invalid = await a.client.post(`/v1/events/${event.id}/redeliver`, { webhookId: 42 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toContain('webhookId');
    expect((await a.client.get(`/v1/webhooks/${leadsOnly.id}/deliveries?status=PENDING`)).body.totalCount).toBe(0);
  });
});

describe('GET /v1/webhooks/{webhookId}/deliveries filters', () => {
  /** Delivery records written as the worker writes them, oldest first, a millisecond apart. */
  async function seed(organizationId: string, webhookId: string, rows: [eventType: string, status: WebhookDelivery['status']][]) {
    const start = Date.now() - 60_000;
    const written: WebhookDelivery[] = [];
    for (const [i, [eventType, status]] of rows.entries()) {
      const at = new Date(start + i);
      const delivery: WebhookDelivery = {
        id: newId('delivery', at),
        eventId: newId('evt', at),
        eventType,
        attempt: 1,
        status,
        statusCode: status === 'PENDING' ? null : status === 'SUCCEEDED' ? 200 : 503,
        error: null,
        durationMs: status === 'PENDING' ? null : 12,
        attemptedAt: status === 'PENDING' ? null : at.toISOString(),
        nextAttemptAt: status === 'SUCCEEDED' ? null : at.toISOString(),
      };
      await recordDelivery(organizationId, webhookId, delivery);
      written.push(delivery);
    }
    return written.reverse();
  }

  it('filters by eventType and by status, alone or together, newest first, with pages, cursors and exact counts, in three calls sent together', async () => {
    const { client, organizationId } = await api.organization();
    const webhook = await subscribe(client, 'https://hooks.example.com/filters');
    const all = await seed(organizationId, webhook.id, [
      ['lead.created', 'SUCCEEDED'],
      ['lead.created', 'FAILED'],
      ['product.updated', 'FAILED'],
      ['lead.created', 'SUCCEEDED'],
      ['webhook.test', 'SUCCEEDED'],
      ['lead.created', 'FAILED'],
      ['lead.updated', 'PENDING'],
      ['lead.created', 'SUCCEEDED'],
    ]);
    const list = async (query: string) => {
      const res = await client.get(`/v1/webhooks/${webhook.id}/deliveries?${query}`);
      expect(res.status, query).toBe(200);
      return res.body as { deliveries: WebhookDelivery[]; totalCount: number; totalPages: number; nextCursor: string | null };
    };
    const expected = (keep: (d: WebhookDelivery) => boolean) => all.filter(keep);

    expect(await list('eventType=lead.created')).toMatchObject({ deliveries: expected((d) => d.eventType === 'lead.created'), totalCount: 5 });
    expect(await list('status=FAILED')).toMatchObject({ deliveries: expected((d) => d.status === 'FAILED'), totalCount: 3 });
    expect(await list('status=PENDING')).toMatchObject({ deliveries: expected((d) => d.status === 'PENDING'), totalCount: 1 });
    expect(await list('eventType=lead.created&status=FAILED')).toMatchObject({ deliveries: expected((d) => d.eventType === 'lead.created' && d.status === 'FAILED'), totalCount: 2 });
    expect(await list('eventType=webhook.test')).toMatchObject({ deliveries: expected((d) => d.eventType === 'webhook.test'), totalCount: 1 });
    expect(await list('eventType=product.updated&status=SUCCEEDED')).toMatchObject({ deliveries: [], totalCount: 0 });
    expect((await list('')).totalCount).toBe(8);

    const succeededLeads = expected((d) => d.eventType === 'lead.created' && d.status === 'SUCCEEDED');
    const page1 = await list('eventType=lead.created&status=SUCCEEDED&limit=2');
    expect(page1).toMatchObject({ deliveries: succeededLeads.slice(0, 2), totalCount: 3, totalPages: 2 });
    const byCursor = await list(`eventType=lead.created&status=SUCCEEDED&limit=2&cursor=${page1.nextCursor}`);
    expect(byCursor).toMatchObject({ deliveries: succeededLeads.slice(2), nextCursor: null });
    expect((await list('eventType=lead.created&status=SUCCEEDED&limit=2&page=2')).deliveries).toEqual(succeededLeads.slice(2));
    // A cursor belongs to its filter.
    expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries?status=SUCCEEDED&limit=2&cursor=${page1.nextCursor}`)).status).toBe(400);

    const calls = await countDynamoCalls(() => list('eventType=lead.created&status=FAILED'));
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand', 'QueryCommand']);
  });

  it('answers 400 naming the field for an unknown event type or status', async () => {
    const { client } = await api.organization();
    const webhook = await subscribe(client, 'https://hooks.example.com/filters');
    for (const [query, field] of [['eventType=lead.exploded', 'eventType'], ['status=succeeded', 'status'], ['status=RETRYING', 'status']]) {
      const res = await client.get(`/v1/webhooks/${webhook.id}/deliveries?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toContain(field);
    }
  });
});

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
    const record = insertRecordOf(Item!, '900000000000000000000001', 'qa-once');

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
    const dayAgo = await failingForADay(organizationId, webhook.id);
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

describe('what a receiver is sent, as the OpenAPI document describes it', () => {
  // Standard Webhooks recommends a formal specification (JSON Schema or OpenAPI) of each payload: the document's
  // OpenAPI 3.1 `webhooks` describe each POST, its headers and its body.
  it('sends the webhook.test ping and every event with the Standard Webhooks headers each webhook names, and a body one of their schemas accepts', async () => {
    const { client } = await api.organization();
    const document = (await api.anonymous.get('/openapi')).body;
    const operations = Object.values(document.webhooks as Record<string, Record<string, any>>).flatMap((item) => Object.values(item));
    const headersNamed = new Set(operations.flatMap((operation) => operation.parameters.filter((parameter: { in: string }) => parameter.in === 'header').map((parameter: { name: string }) => parameter.name.toLowerCase())));

    const hook = await receiver();
    const webhook = await subscribe(client, hook.url, ['lead.created', 'lead.updated']);
    await client.post(`/v1/webhooks/${webhook.id}/test`);
    const { lead } = (await client.post('/v1/leads', { name: 'Described Lead', email: 'described@example.com' })).body;
    await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' });
    const received = await hook.waitFor(3);
    const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(document, 'doc');
    const bodies = Object.entries(document.webhooks as Record<string, Record<string, unknown>>).flatMap(([name, item]) =>
      Object.keys(item).map((method) => ajv.getSchema(`doc#/webhooks/${name}/${method}/requestBody/content/application~1json/schema`)!),
    );
    expect((received.map((delivery) => verify(webhook.secret, delivery)).map((event) => event.type)).sort()).toEqual(['lead.created', 'lead.updated', 'webhook.test']);
    for (const delivery of received) {
      for (const header of headersNamed) expect(delivery.headers[header], header).toEqual(expect.any(String));
      const payload = verify(webhook.secret, delivery);
      expect(bodies.some((validate) => validate(payload)), JSON.stringify(payload)).toBe(true);
    }
  });
});

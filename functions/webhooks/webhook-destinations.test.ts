import type { LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboundDns } from '#shared/net/outbound';
import { resolvedRefusalOf } from './destination';
import { webhookSettings } from './settings';
import { useTestApi } from '../../test/support/api';
import { startReceiver, type Receiver } from '../../test/support/receiver';

/**
 * DNS records for names under `.test` (a TLD reserved never to resolve, RFC 2606), given through the outbound guard's
 * resolver, so a name can point at a private address, or change its answer between create and delivery as a rebinding
 * attack does. Every other name (localhost included) goes to the system resolver. Which addresses and hosts the guard
 * refuses is test/outbound.test.ts's matrix; this file holds webhooks to it, through the API.
 */
const records = new Map<string, LookupAddress[]>();
const systemResolve = outboundDns.resolve;
beforeAll(() => {
  outboundDns.resolve = async (hostname, family) => {
    const answer = records.get(hostname);
    if (!answer) return systemResolve(hostname, family);
    return family ? answer.filter((address) => address.family === family) : answer;
  };
});
afterAll(() => {
  outboundDns.resolve = systemResolve;
});

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });
const PUBLIC = v4('93.184.216.34');
records.set('public.ssrf.test', [PUBLIC, v6('2606:2800:220:1:248:1893:25c8:1946')]);
records.set('loopback.ssrf.test', [v4('127.0.0.1')]);
records.set('metadata.ssrf.test', [v4('169.254.169.254')]);
records.set('private.ssrf.test', [v4('10.20.30.40')]);
records.set('v6-loopback.ssrf.test', [v6('::1')]);
records.set('unique-local.ssrf.test', [v6('fd00:ec2::254')]);
records.set('mapped.ssrf.test', [v6('::ffff:192.168.1.10')]);
records.set('compatible.ssrf.test', [v6('::7f00:1')]);
records.set('documentation.ssrf.test', [v4('198.51.100.7')]);
records.set('v6-documentation.ssrf.test', [v6('2001:db8::10')]);
// One bad answer among good ones is enough to refuse: the connection might use any of them.
records.set('mixed.ssrf.test', [PUBLIC, v4('172.16.0.5')]);

const REFUSED = 'url must not resolve to a private, loopback or link-local address';

/** Deployed mode for the test: https only, no private addresses; back to `npm start`'s rules after it. */
function deployed() {
  webhookSettings.allowPrivateUrls = false;
}
afterEach(() => {
  webhookSettings.allowPrivateUrls = true;
});

describe('a webhook URL resolved as it is saved', () => {
  it.each(['loopback', 'metadata', 'private', 'v6-loopback', 'unique-local', 'mapped', 'compatible', 'documentation', 'v6-documentation', 'mixed'])('refuses a name resolving to a %s address', async (name) => {
    deployed();
    expect(await resolvedRefusalOf(new URL(`https://${name}.ssrf.test/hooks`))).toBe(REFUSED);
  });

  it('accepts a name resolving to public addresses, and any name under `npm start`’s rules', async () => {
    deployed();
    expect(await resolvedRefusalOf(new URL('https://public.ssrf.test/hooks'))).toBeUndefined();
    webhookSettings.allowPrivateUrls = true;
    expect(await resolvedRefusalOf(new URL('http://loopback.ssrf.test/hooks'))).toBeUndefined();
  });
});

describe('webhook URLs in deployed mode, through the API', () => {
  const api = useTestApi({ events: true });
  const receivers: Receiver[] = [];
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  it.each(['https://loopback.ssrf.test/hooks', 'https://metadata.ssrf.test/latest/meta-data', 'https://v6-loopback.ssrf.test/', 'https://mapped.ssrf.test/', 'https://compatible.ssrf.test/', 'https://mixed.ssrf.test/'])(
    'refuses to subscribe %s with 400 naming url, and subscribes a public name',
    async (url) => {
      const { client } = await api.organization();
      deployed();
      const res = await client.post('/v1/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'url', message: REFUSED }]);
      expect((await client.get('/v1/webhooks')).body.totalCount).toBe(0);
      expect((await client.post('/v1/webhooks', { url: 'https://public.ssrf.test/hooks', events: ['*'] })).status).toBe(201);
    },
  );

  it.each(['https://0x7f.1/', 'https://2130706433/', 'https://[::ffff:a9fe:a9fe]/', 'https://[::7f00:1]/', 'https://[::169.254.169.254]/', 'https://192.0.2.10/', 'https://[2001:db8::1]/', 'https://100.64.0.1/'])(
    'refuses %s, loopback, metadata or a reserved address written another way, with 400 naming url',
    async (url) => {
      const { client } = await api.organization();
      deployed();
      const res = await client.post('/v1/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'url', message: expect.stringMatching(/^url must not point at a private/) }]);
    },
  );

  describe('host names with a trailing dot', () => {
    const POINTS_AT = 'url must not point at a private, loopback or link-local address';
    const trailingDot: [url: string, message: string][] = [
      ['https://LOCALHOST./', POINTS_AT],
      ['https://localhost./x', POINTS_AT],
      ['https://localhost../', POINTS_AT],
      ['https://hooks.LocalHost./', POINTS_AT],
      ['https://10.0.0.1../', POINTS_AT],
      ['https://0x7f.1../', POINTS_AT],
      ['https://127.0.0.1./', POINTS_AT],
      ['https://169.254.169.254./latest/meta-data', POINTS_AT],
      ['https://metadata.ssrf.test./latest/meta-data', REFUSED],
      ['https://LOOPBACK.ssrf.test./hooks', REFUSED],
      ['https://unique-local.ssrf.test./', REFUSED],
    ];

    it.each(trailingDot)('refuses to subscribe %s with 400 naming url', async (url, message) => {
      const { client } = await api.organization();
      deployed();
      const res = await client.post('/v1/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'url', message }]);
      expect((await client.get('/v1/webhooks')).body.totalCount).toBe(0);
    });

    it.each(trailingDot)('refuses to change a subscription’s url to %s with 400 naming url', async (url, message) => {
      const { client } = await api.organization();
      deployed();
      const webhook = (await client.post('/v1/webhooks', { url: 'https://public.ssrf.test/hooks', events: ['*'] })).body.webhook;
      const res = await client.put(`/v1/webhooks/${webhook.id}`, { url });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'url', message }]);
      expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook.url).toBe('https://public.ssrf.test/hooks');
    });

    it('subscribes a public name with a trailing dot, and changes a url to one, keeping the url as given', async () => {
      const { client } = await api.organization();
      deployed();
      const created = await client.post('/v1/webhooks', { url: 'https://public.ssrf.test./hooks', events: ['*'] });
      expect(created.status).toBe(201);
      expect(created.body.webhook.url).toBe('https://public.ssrf.test./hooks');
      const changed = await client.put(`/v1/webhooks/${created.body.webhook.id}`, { url: 'https://PUBLIC.ssrf.test./other' });
      expect(changed.status).toBe(200);
      expect(changed.body.webhook.url).toBe('https://PUBLIC.ssrf.test./other');
    });

    it('refuses at delivery a name with a trailing dot that resolves to loopback, recording why', async () => {
      const { client } = await api.organization();
      const hook = await startReceiver();
      receivers.push(hook);
      // Subscribed under `npm start`'s rules, which check nothing; delivered under the deployed ones.
      const created = await client.post('/v1/webhooks', { url: `https://loopback.ssrf.test.:${new URL(hook.url).port}/hooks`, events: ['lead.created'] });
      expect(created.status).toBe(201);
      deployed();
      await client.post('/v1/leads', { name: 'Dotted Lead', email: 'dotted@example.com' });
      const deliveries = `/v1/webhooks/${created.body.webhook.id}/deliveries`;
      await vi.waitFor(async () => expect((await client.get(deliveries)).body.totalCount).toBeGreaterThan(0), { timeout: 10_000 });
      const [attempt] = (await client.get(deliveries)).body.deliveries;
      expect(attempt).toMatchObject({ status: 'FAILED', statusCode: null, error: 'loopback.ssrf.test. resolves to a private, loopback or link-local address' });
      expect(hook.received).toEqual([]);
      await client.delete(`/v1/webhooks/${created.body.webhook.id}`);
    });
  });

  it('holds the test event to the same rules: a name now resolving to loopback, or an http url, is a failed attempt, and the receiver gets nothing', async () => {
    const { client } = await api.organization();
    const hook = await startReceiver();
    receivers.push(hook);
    const port = new URL(hook.url).port;
    records.set('rebind-ping.ssrf.test', [PUBLIC]);
    deployed();
    const created = await client.post('/v1/webhooks', { url: `https://rebind-ping.ssrf.test:${port}/hooks`, events: ['lead.created'] });
    expect(created.status).toBe(201);
    records.set('rebind-ping.ssrf.test', [v4('127.0.0.1')]);
    const rebound = await client.post(`/v1/webhooks/${created.body.webhook.id}/test`);
    expect(rebound.status).toBe(200);
    expect(rebound.body.attempt).toMatchObject({ eventType: 'webhook.test', status: 'FAILED', statusCode: null, error: 'rebind-ping.ssrf.test resolves to a private, loopback or link-local address' });

    // Subscribed under `npm start`'s rules, which allow a plain http loopback receiver; tested under the deployed ones.
    webhookSettings.allowPrivateUrls = true;
    const local = (await client.post('/v1/webhooks', { url: hook.url, events: ['*'] })).body.webhook;
    deployed();
    const plain = await client.post(`/v1/webhooks/${local.id}/test`);
    expect(plain.status).toBe(200);
    expect(plain.body.attempt).toMatchObject({ status: 'FAILED', statusCode: null, error: 'url must be an https URL' });
    expect(hook.received).toEqual([]);
    // The control: the same receiver gets the test event where loopback is allowed.
    webhookSettings.allowPrivateUrls = true;
    expect((await client.post(`/v1/webhooks/${local.id}/test`)).body.attempt).toMatchObject({ status: 'SUCCEEDED', statusCode: 200 });
    expect(hook.received).toHaveLength(1);
  });

  it('refuses to change a subscription’s url to a name resolving to a private address', async () => {
    const { client } = await api.organization();
    deployed();
    const webhook = (await client.post('/v1/webhooks', { url: 'https://public.ssrf.test/hooks', events: ['*'] })).body.webhook;
    const res = await client.put(`/v1/webhooks/${webhook.id}`, { url: 'https://private.ssrf.test/hooks' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'url', message: REFUSED }]);
    expect((await client.get(`/v1/webhooks/${webhook.id}`)).body.webhook.url).toBe('https://public.ssrf.test/hooks');
  });

  it('refuses at delivery a name that resolved to a public address at create and now resolves to loopback, recording why', async () => {
    const { client } = await api.organization();
    const hook = await startReceiver();
    receivers.push(hook);
    const port = new URL(hook.url).port;
    records.set('rebind.ssrf.test', [PUBLIC]);
    deployed();
    const created = await client.post('/v1/webhooks', { url: `https://rebind.ssrf.test:${port}/hooks`, events: ['lead.created'] });
    expect(created.status).toBe(201);
    // The rebinding answer: the receiver on 127.0.0.1 is where a delivery would now land.
    records.set('rebind.ssrf.test', [v4('127.0.0.1')]);
    await client.post('/v1/leads', { name: 'Rebound Lead', email: 'rebound@example.com' });
    const deliveries = `/v1/webhooks/${created.body.webhook.id}/deliveries`;
    await vi.waitFor(async () => expect((await client.get(deliveries)).body.totalCount).toBeGreaterThan(0), { timeout: 10_000 });
    const [attempt] = (await client.get(deliveries)).body.deliveries;
    expect(attempt).toMatchObject({ status: 'FAILED', statusCode: null, error: 'rebind.ssrf.test resolves to a private, loopback or link-local address' });
    expect(hook.received).toEqual([]);
    await client.delete(`/v1/webhooks/${created.body.webhook.id}`);
  });
});

import type { LookupAddress } from 'node:dns';
import type * as dnsPromises from 'node:dns/promises';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { guardedLookup, isBlockedAddress, resolvedRefusalOf } from './destination';
import { webhookSettings } from './settings';
import { useTestApi } from '../../test/support/api';
import { startReceiver, type Receiver } from '../../test/support/receiver';

/**
 * DNS records for names under `.test` (a TLD reserved never to resolve, RFC 2606), so a name can point at a
 * private address, or change its answer between create and delivery as a rebinding attack does. Every other
 * name (localhost included) goes to the system resolver. The code under test is the real destination module.
 */
const records = vi.hoisted(() => new Map<string, LookupAddress[]>());
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof dnsPromises>();
  const lookup = async (hostname: string, options?: { all?: boolean; family?: number }) => {
    const answer = records.get(hostname);
    if (!answer) return real.lookup(hostname, options as never);
    const matching = options?.family ? answer.filter(({ family }) => family === options.family) : answer;
    if (matching.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return options?.all ? matching : matching[0];
  };
  return { ...real, lookup, default: { ...real, lookup } };
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

/** What the connection's own lookup answers for a name: the address it would connect to, or why not. */
function connectLookup(hostname: string, all = false): Promise<{ address?: string | LookupAddress[]; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) =>
    guardedLookup(hostname, { all, family: 0 } as never, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[]) => resolve(error ? { error } : { address })),
  );
}

describe('which addresses a webhook may reach', () => {
  it.each([
    ['10.0.0.1', 'private (10/8)'],
    ['172.16.5.4', 'private (172.16/12)'],
    ['172.31.255.255', 'private (172.16/12, its last address)'],
    ['192.168.1.1', 'private (192.168/16)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback (anywhere in 127/8)'],
    ['169.254.169.254', 'link-local: the instance metadata endpoint'],
    ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
    ['0.0.0.0', 'this host'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique-local'],
    ['fd00:ec2::254', 'IPv6 unique-local: the instance metadata endpoint over IPv6'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata endpoint'],
    ['::FFFF:10.0.0.1', 'IPv4-mapped private, upper case'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex, as URLs write it'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata endpoint'],
    ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback written in full'],
    ['::7f00:1', 'IPv4-compatible loopback (::/96, deprecated)'],
    ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
    ['::a9fe:a9fe', 'IPv4-compatible metadata endpoint'],
    ['::8.8.8.8', 'IPv4-compatible, even of a public address: not global unicast'],
    ['192.0.2.1', 'documentation (TEST-NET-1)'],
    ['198.51.100.7', 'documentation (TEST-NET-2)'],
    ['203.0.113.255', 'documentation (TEST-NET-3, its last address)'],
    ['192.0.0.9', 'IETF protocol assignments'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['0.1.2.3', 'this network (0/8)'],
    ['100.127.255.255', 'shared address space, its last address'],
    ['198.18.0.1', 'benchmarking (198.18/15)'],
    ['198.19.255.255', 'benchmarking, its last address'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved (240/4)'],
    ['255.255.255.255', 'limited broadcast'],
    ['2001:db8::1', 'IPv6 documentation (2001:db8::/32)'],
    ['2001:DB8:FFFF::1', 'IPv6 documentation, upper case'],
    ['3fff::1', 'IPv6 documentation (3fff::/20)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (2001::/32)'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['2002:7f00:1::1', '6to4 embedding loopback'],
    ['2002:808:808::1', '6to4, even of a public address'],
    ['100::1', 'IPv6 discard (100::/64)'],
    ['ff0e::1', 'IPv6 global-scope multicast'],
    ['4000::1', 'IPv6 outside global unicast (2000::/3)'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
  ])('refuses %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    ['93.184.216.34', 'public IPv4'],
    ['8.8.8.8', 'public IPv4'],
    ['172.32.0.1', 'just past 172.16/12'],
    ['100.128.0.1', 'just past the shared address space'],
    ['169.255.0.1', 'just past link-local'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['2001:4860:4860::8888', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['::ffff:808:808', 'IPv4-mapped public in hex'],
    ['192.0.3.1', 'just past TEST-NET-1'],
    ['198.51.99.255', 'just before TEST-NET-2'],
    ['203.0.114.0', 'just past TEST-NET-3'],
    ['198.20.0.1', 'just past benchmarking'],
    ['223.255.255.254', 'just before multicast'],
    ['1.0.0.1', 'just past 0/8'],
    ['2001:db9::1', 'just past IPv6 documentation'],
    ['2001:200::1', 'just past IETF protocol assignments (2001::/23)'],
    ['2003::1', 'just past 6to4'],
    ['3ffe::1', 'just before 3fff::/20'],
  ])('allows %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('the DNS lookup a delivery connects with', () => {
  it('refuses localhost, as the system resolver answers it, only in deployed mode', async () => {
    expect((await connectLookup('localhost')).address).toMatch(/^(127\.|::1$)/);
    deployed();
    const { error, address } = await connectLookup('localhost');
    expect(address).toBeUndefined();
    expect(error).toMatchObject({ code: 'EBLOCKEDADDRESS', message: 'localhost resolves to a private, loopback or link-local address' });
  });

  it.each(['loopback', 'metadata', 'private', 'v6-loopback', 'unique-local', 'mapped', 'compatible', 'documentation', 'v6-documentation', 'mixed'])('refuses a name resolving to a %s address', async (name) => {
    deployed();
    const hostname = `${name}.ssrf.test`;
    expect((await connectLookup(hostname)).error).toMatchObject({ code: 'EBLOCKEDADDRESS' });
    expect((await connectLookup(hostname, true)).error).toMatchObject({ code: 'EBLOCKEDADDRESS' });
    expect(await resolvedRefusalOf(new URL(`https://${hostname}/hooks`))).toBe(REFUSED);
  });

  it('looks up a name written with a trailing dot or in capitals as the name itself, and refuses it alike', async () => {
    // The DNS records above answer only their exact names, so this sees which name the lookup asks for.
    expect((await connectLookup('localhost.')).address).toMatch(/^(127\.|::1$)/);
    deployed();
    for (const hostname of ['localhost.', 'LOCALHOST.', 'localhost..', 'metadata.ssrf.test.', 'Loopback.SSRF.test.', 'mapped.ssrf.test.']) {
      expect((await connectLookup(hostname)).error, hostname).toMatchObject({ code: 'EBLOCKEDADDRESS', message: `${hostname} resolves to a private, loopback or link-local address` });
      expect((await connectLookup(hostname, true)).error, hostname).toMatchObject({ code: 'EBLOCKEDADDRESS' });
    }
    expect(await connectLookup('public.ssrf.test.')).toEqual({ address: PUBLIC.address });
  });

  it('connects a name resolving to public addresses, one or all as asked', async () => {
    deployed();
    expect(await connectLookup('public.ssrf.test')).toEqual({ address: PUBLIC.address });
    expect(await connectLookup('public.ssrf.test', true)).toEqual({ address: records.get('public.ssrf.test') });
    expect(await resolvedRefusalOf(new URL('https://public.ssrf.test/hooks'))).toBeUndefined();
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

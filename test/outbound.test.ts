import type { LookupAddress } from 'node:dns';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockedAddressError, guardedLookup, isBlockedAddress, outboundDns, outboundRequest, OutboundRefusedError, refusalAfterLookup, refusalBeforeLookup, type OutboundReach } from '#shared/net/outbound';

/** The one guard of every request to a URL someone else chose: one matrix of hosts, addresses and resolutions. */

const DEPLOYED: OutboundReach = { local: false };
const LOCAL: OutboundReach = { local: true };

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });
const PUBLIC = v4('93.184.216.34');

/** DNS answers for names under `.test` (never resolved for real, RFC 2606), through the guard's resolver seam; every name asked is recorded. */
const RECORDS: Record<string, LookupAddress[]> = {
  'public.test': [PUBLIC, v6('2606:2800:220:1:248:1893:25c8:1946')],
  'loopback.test': [v4('127.0.0.1')],
  'metadata.test': [v4('169.254.169.254')],
  'private.test': [v4('10.20.30.40')],
  'cgnat.test': [v4('100.64.0.1')],
  'v6-loopback.test': [v6('::1')],
  'unique-local.test': [v6('fd00:ec2::254')],
  'link-local.test': [v6('fe80::1')],
  'mapped.test': [v6('::ffff:192.168.1.10')],
  'mixed.test': [PUBLIC, v4('172.16.0.5')],
  'private-first.test': [v4('10.0.0.1'), PUBLIC],
  'nothing.test': [],
};
const asked: string[] = [];
const realResolve = outboundDns.resolve;
beforeEach(() => {
  asked.length = 0;
  outboundDns.resolve = async (hostname, family) => {
    asked.push(family ? `${hostname}/${family}` : hostname);
    const answer = RECORDS[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return family ? answer.filter((address) => address.family === family) : answer;
  };
});
afterEach(() => {
  outboundDns.resolve = realResolve;
});

describe('the addresses never reached', () => {
  it.each([
    ['0.0.0.0', '0.1.2.3', '10.0.0.1', '10.255.255.255', '100.64.0.1', '100.127.255.255', '127.0.0.1', '127.255.255.254', '169.254.169.254', '172.16.0.0', '172.16.5.4', '172.31.255.255'],
    ['192.0.0.9', '192.0.2.1', '192.88.99.1', '192.168.1.1', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.255', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255'],
    ['::1', '::', 'fe80::', 'fe80::1', 'fe80::1%eth0', 'fc00::', 'fc00::1', 'fd00:ec2::254', 'fdff:ffff::1', 'ff02::1', 'ff0e::1', '100::1', '4000::1', '64:ff9b::a9fe:a9fe'],
    ['::ffff:127.0.0.1', '::ffff:169.254.169.254', '::FFFF:10.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::8.8.8.8'],
    ['2001:db8::1', '2001:DB8:FFFF::1', '3fff::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:2::1', '2002:7f00:1::1', '2002:808:808::1'],
    ['localhost', 'example.com', '', '1.2.3', '::ffff:1.2.3.4.5'],
  ])('refuses each of %s …', (...addresses) => {
    for (const address of addresses) expect(isBlockedAddress(address), address).toBe(true);
  });

  it('reaches the public addresses just outside each block', () => {
    const outside = ['1.0.0.1', '9.255.255.255', '11.0.0.0', '100.0.0.1', '100.63.255.255', '100.128.0.1', '126.255.255.255', '128.0.0.0', '169.253.255.255', '169.255.0.1', '172.15.255.255', '172.32.0.0', '172.32.0.1'];
    const more = ['192.0.3.1', '192.167.255.255', '192.169.0.0', '198.17.255.255', '198.20.0.1', '198.51.99.255', '203.0.114.0', '223.255.255.254', '8.8.8.8', '93.184.216.34'];
    const v6Outside = ['2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '::ffff:808:808', '2001:db9::1', '2001:200::1', '2003::1', '3ffe::1', '2000::1'];
    for (const address of [...outside, ...more, ...v6Outside]) expect(isBlockedAddress(address), address).toBe(false);
  });
});

describe('a URL before its host is resolved', () => {
  it.each([
    ['http://example.com/', 'NOT_HTTPS'],
    ['ftp://example.com/x', 'NOT_HTTPS'],
    ['http://127.0.0.1/', 'NOT_HTTPS'],
    ['https://localhost/', 'PRIVATE_HOST'],
    ['https://localhost./', 'PRIVATE_HOST'],
    ['https://LOCALHOST../', 'PRIVATE_HOST'],
    ['https://hooks.localhost/', 'PRIVATE_HOST'],
    ['https://a.b.LocalHost./', 'PRIVATE_HOST'],
    ['https://127.0.0.1/', 'PRIVATE_HOST'],
    ['https://127.0.0.1./', 'PRIVATE_HOST'],
    ['https://2130706433/', 'PRIVATE_HOST'],
    ['https://0177.0.0.1/', 'PRIVATE_HOST'],
    ['https://0x7f.1/', 'PRIVATE_HOST'],
    ['https://0x7f.1../', 'PRIVATE_HOST'],
    ['https://127.1/', 'PRIVATE_HOST'],
    ['https://0/', 'PRIVATE_HOST'],
    ['https://0.0.0.0/', 'PRIVATE_HOST'],
    ['https://10.0.0.1:8443/', 'PRIVATE_HOST'],
    ['https://10.0.0.1../', 'PRIVATE_HOST'],
    ['https://172.16.0.1/', 'PRIVATE_HOST'],
    ['https://172.31.255.255/', 'PRIVATE_HOST'],
    ['https://192.168.1.1/', 'PRIVATE_HOST'],
    ['https://169.254.169.254/latest/meta-data', 'PRIVATE_HOST'],
    ['https://100.64.0.1/', 'PRIVATE_HOST'],
    ['https://[::1]/', 'PRIVATE_HOST'],
    ['https://[::]/', 'PRIVATE_HOST'],
    ['https://[::ffff:127.0.0.1]/', 'PRIVATE_HOST'],
    ['https://[::ffff:a9fe:a9fe]/', 'PRIVATE_HOST'],
    ['https://[fe80::1]/', 'PRIVATE_HOST'],
    ['https://[fc00::]/', 'PRIVATE_HOST'],
    ['https://[fd00:ec2::254]/', 'PRIVATE_HOST'],
    ['https://[2001:db8::1]/', 'PRIVATE_HOST'],
  ])('refuses %s as %s', (url, refusal) => {
    expect(refusalBeforeLookup(new URL(url), DEPLOYED)).toBe(refusal);
    expect(refusalBeforeLookup(new URL(url), LOCAL)).toBeUndefined();
  });

  it.each([
    'https://example.com/hooks',
    'https://127.0.0.1.example.com/',
    'https://localhost.example.com/',
    'https://notlocalhost/',
    'https://localhost-hooks.example/',
    'https://10.0.0.1.example.com/',
    'https://100.0.0.1/',
    'https://172.15.255.255/',
    'https://172.32.0.1/',
    'https://8.8.8.8:8443/x',
    'https://[2606:4700:4700::1111]/',
  ])('lets %s through to its lookup', (url) => {
    expect(refusalBeforeLookup(new URL(url), DEPLOYED)).toBeUndefined();
  });
});

describe('a URL resolved as it is saved', () => {
  it.each(['loopback', 'metadata', 'private', 'cgnat', 'v6-loopback', 'unique-local', 'link-local', 'mapped', 'mixed', 'private-first'])('refuses a name resolving to a %s address', async (name) => {
    expect(await refusalAfterLookup(new URL(`https://${name}.test/hooks`), DEPLOYED)).toBe('RESOLVES_PRIVATE');
    expect(asked).toEqual([`${name}.test`]);
  });

  it('asks the name as DNS means it, and reaches one resolving to public addresses alone, or not resolving now', async () => {
    expect(await refusalAfterLookup(new URL('https://Mixed.TEST./hooks'), DEPLOYED)).toBe('RESOLVES_PRIVATE');
    expect(await refusalAfterLookup(new URL('https://public.test/hooks'), DEPLOYED)).toBeUndefined();
    expect(await refusalAfterLookup(new URL('https://unknown.test/hooks'), DEPLOYED)).toBeUndefined();
    expect(await refusalAfterLookup(new URL('https://nothing.test/hooks'), DEPLOYED)).toBeUndefined();
    expect(asked).toEqual(['mixed.test', 'public.test', 'unknown.test', 'nothing.test']);
  });

  it('looks nothing up for a refused URL, an address, or a local reach', async () => {
    expect(await refusalAfterLookup(new URL('http://public.test/'), DEPLOYED)).toBe('NOT_HTTPS');
    expect(await refusalAfterLookup(new URL('https://127.0.0.1/'), DEPLOYED)).toBe('PRIVATE_HOST');
    expect(await refusalAfterLookup(new URL('https://8.8.8.8/'), DEPLOYED)).toBeUndefined();
    expect(await refusalAfterLookup(new URL('http://loopback.test/'), LOCAL)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});

/** What the connection's own lookup answers for a name: the address it would connect to, or why not. */
function connectLookup(hostname: string, reach: OutboundReach, options: { all?: boolean; family?: number } = {}): Promise<{ address?: string | LookupAddress[]; family?: number; error?: Error }> {
  return new Promise((resolve) =>
    guardedLookup(reach)(hostname, { all: false, family: 0, ...options } as never, (error: Error | null, address: string | LookupAddress[], family?: number) =>
      resolve(error ? { error } : options.all ? { address } : { address, family }),
    ),
  );
}

describe('the lookup a request connects with', () => {
  it('resolves through the system resolver unless a test answers: every address of a name, or those of the family asked', async () => {
    const all = await realResolve('localhost');
    expect(all.map(({ address }) => address)).toContain('127.0.0.1');
    const v4Only = await realResolve('localhost', 4);
    expect(v4Only.length > 0 && v4Only.every(({ family }) => family === 4)).toBe(true);
  });


  it.each(['loopback', 'metadata', 'private', 'cgnat', 'v6-loopback', 'unique-local', 'link-local', 'mapped', 'mixed', 'private-first', 'nothing'])('refuses a name resolving to a %s address (or none), one or all asked', async (name) => {
    for (const all of [false, true]) {
      const { error, address } = await connectLookup(`${name}.test`, DEPLOYED, { all });
      expect(address).toBeUndefined();
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(error).toMatchObject({ code: 'EBLOCKEDADDRESS', message: `${name}.test resolves to a private, loopback or link-local address` });
    }
  });

  it('asks the name as DNS means it, and names it as asked when refused', async () => {
    for (const hostname of ['metadata.test.', 'Loopback.TEST.', 'mapped.test..']) {
      expect((await connectLookup(hostname, DEPLOYED)).error?.message, hostname).toBe(`${hostname} resolves to a private, loopback or link-local address`);
    }
    expect(asked).toEqual(['metadata.test', 'loopback.test', 'mapped.test']);
  });

  it('connects a name resolving to public addresses: the first, or all, or those of the family asked', async () => {
    expect(await connectLookup('public.test.', DEPLOYED)).toEqual({ address: PUBLIC.address, family: 4 });
    expect(await connectLookup('public.test', DEPLOYED, { all: true })).toEqual({ address: RECORDS['public.test'] });
    expect(await connectLookup('public.test', DEPLOYED, { family: 6 })).toEqual({ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 });
    expect(asked).toEqual(['public.test', 'public.test', 'public.test/6']);
  });

  it('connects a private name under a local reach, but never a name with no address; a failed lookup is its own error', async () => {
    expect(await connectLookup('mixed.test', LOCAL, { all: true })).toEqual({ address: RECORDS['mixed.test'] });
    expect(await connectLookup('loopback.test', LOCAL)).toEqual({ address: '127.0.0.1', family: 4 });
    expect((await connectLookup('nothing.test', LOCAL)).error).toBeInstanceOf(BlockedAddressError);
    const { error } = await connectLookup('unknown.test', DEPLOYED);
    expect(error).not.toBeInstanceOf(BlockedAddressError);
    expect(error).toMatchObject({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND unknown.test' });
  });
});

describe('a request under the guard', () => {
  const connections: Socket[] = [];
  const server = createServer((socket) => void connections.push(socket.end('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n')));
  const listening = new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  afterAll(() => new Promise<void>((resolve) => (connections.forEach((socket) => socket.destroy()), server.close(() => resolve()))));

  /** The status a request answered, or the error it ended with. */
  const outcome = (url: string, reach: OutboundReach) =>
    new Promise<number | Error>((resolve) => {
      const outgoing = outboundRequest(new URL(url), reach, { method: 'GET' }, (answer) => (answer.resume(), resolve(answer.statusCode!)));
      outgoing.on('error', resolve);
      outgoing.end();
    });

  it('is refused before any lookup or connection when its URL is', async () => {
    const port = await listening;
    for (const [url, refusal] of [[`http://127.0.0.1:${port}/`, 'NOT_HTTPS'], [`https://127.0.0.1:${port}/`, 'PRIVATE_HOST'], [`https://localhost:${port}/`, 'PRIVATE_HOST']] as const) {
      expect(() => outboundRequest(new URL(url), DEPLOYED, {}, () => undefined), url).toThrow(new OutboundRefusedError(refusal));
    }
    expect([asked, connections.length]).toEqual([[], 0]);
  });

  it('connects through the guarded lookup: a name resolving to loopback reaches nothing, and under a local reach reaches the host', async () => {
    const port = await listening;
    const refused = await outcome(`https://loopback.test:${port}/`, DEPLOYED);
    expect(refused).toBeInstanceOf(BlockedAddressError);
    expect(connections).toHaveLength(0);
    expect(await outcome(`http://loopback.test:${port}/`, LOCAL)).toBe(204);
    expect(connections).toHaveLength(1);
    expect(asked.map((name) => name.split('/')[0])).toEqual(['loopback.test', 'loopback.test']);
  });
});

describe('every request the API sends to a URL', () => {
  /**
   * The product files that reach out, and why each may: the guard itself, and requests to the API's own configured
   * URL or to the Lambda extension on the function's own machine, which no caller chooses.
   */
  const ALLOWED: Record<string, string> = {
    'shared/net/outbound.ts': 'the guard',
    'functions/mcp/server.ts': "a tool call to the API's own configured URL",
    'shared/aws/secrets-extension.ts': "the Parameters and Secrets extension on the function's own localhost",
  };
  const OUTBOUND = /\bfetch\(|import\s*\{[^}]*\b(request|get)\b[^}]*\}\s*from\s*'node:(https?|http2)'|\bhttps?2?\.(request|get|connect)\(|from\s*'node:(net|tls)'[^;]*\bconnect\b|\bundici\b|\baxios\b/;
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : []));

  it('goes through the guard, but for the named requests to the API itself', () => {
    const reaching = ['functions', 'shared'].flatMap(files).filter((file) => OUTBOUND.test(readFileSync(file, 'utf8')));
    expect(reaching.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});

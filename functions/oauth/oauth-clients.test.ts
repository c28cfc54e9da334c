import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { clientDocumentHost, consent, hangingHost, tricklingHost, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient, consentPage, consentPageAnswer } from '../../test/support/oauth';
import { clientDocumentHosts, OAUTH_LIMITS } from './settings';
import { forgetClientDocuments, resolveClient } from './clients';
import { outboundDns } from '#shared/net/outbound';
import type { OAuthError } from './errors';
import { getOAuthAuthorize } from './routes';

const api = useTestApi({ clock: 'manual' });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const token = (fields: Record<string, string>) => api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });

/** The consent page's path for an authorization request: PKCE and the rest as a client sends them, `params` over them. */
const authorizePath = (params: Record<string, string | undefined>) => {
  const query = { response_type: 'code', redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 'xyz', ...params };
  return `/oauth/authorize?${new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined))}`;
};
const authorize = (params: Record<string, string | undefined>) => consentPageAnswer(`${api.url}${authorizePath(params)}`);

/** What the consent page answered: 200 (the page), or the status, the field and the message of a refusal. */
async function answerTo(params: Record<string, string | undefined>) {
  const res = await authorize(params);
  return res.status === 200 ? 200 : [res.status, res.body.error?.details?.[0]?.path, res.body.message as string];
}

const TRUSTED = new Set(clientDocumentHosts.allowed);
beforeEach(() => forgetClientDocuments());
afterEach(() => {
  clientDocumentHosts.allowed = new Set(TRUSTED);
});

/** Lets the local host's documents be fetched, as `OAUTH_TEST_CLIENT_HOSTS` does for npm start. */
function trust(host: { hostPort: string; ca: string }) {
  clientDocumentHosts.allowed.add(host.hostPort);
  clientDocumentHosts.ca = host.ca;
}

describe('a client registered by dynamic registration', () => {
  it('and never granted anything is usable until a day has passed, then refused as invalid_client', async () => {
    const clientId = await registeredClient(api);
    // The item's TTL is in whole seconds: the last second before the day is out, then the day.
    await api.advanceTime('PT23H59M59S');
    expect(await answerTo({ client_id: clientId })).toBe(200);
    await api.advanceTime(1000);
    expect(await answerTo({ client_id: clientId })).toEqual([400, 'client_id', expect.stringContaining('is not a client registered here')]);
    const refused = await token({ grant_type: 'authorization_code', code: 'code_unknown', redirect_uri: LOOPBACK_REDIRECT, code_verifier: pkce().verifier, client_id: clientId });
    expect([refused.status, refused.body.error]).toEqual([401, 'invalid_client']);
  });

  it('once granted is kept past the day: its refresh still works', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const { verifier, challenge } = pkce();
    const code = redirectedWith(await consent(`${api.url}${authorizePath({ client_id: clientId, code_challenge: challenge })}`, apiKey)).get('code')!;
    const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    await api.advanceTime('P2D');
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(await answerTo({ client_id: clientId })).toBe(200);
  });
});

describe('the redirect URI asked for', () => {
  it('must be one the client has, to the character: no prefix, no longer path, no other form of it', async () => {
    const clientId = await registeredClient(api, ['https://app.example.com', 'https://app.example.com/cb', LOOPBACK_REDIRECT]);
    for (const exact of ['https://app.example.com', 'https://app.example.com/cb']) expect(await answerTo({ client_id: clientId, redirect_uri: exact }), exact).toBe(200);
    const refused = [
      'https://app.example.com.attacker.net/steal',
      'https://app.example.com/',
      'https://app.example.com/cb/../x',
      'https://app.example.com/cbx',
      'https://app.example.com/cb/',
      'https://app.example.com/cb?next=x',
      'https://app.example.com/cb#x',
      'http://app.example.com/cb',
      'https://APP.example.com/cb',
      'https://app.example.com:8443/cb',
    ];
    for (const asked of refused) expect(await answerTo({ client_id: clientId, redirect_uri: asked }), asked).toEqual([400, 'redirect_uri', `redirect_uri ${asked} is not one of the client's redirect URIs`]);
  });

  it('on the loopback interface may differ in its port alone (RFC 8252): not its path, host, scheme or query', async () => {
    const clientId = await registeredClient(api, [LOOPBACK_REDIRECT, 'https://app.example.com/cb', 'https://127.0.0.1/secure']);
    for (const port of ['http://127.0.0.1:50999/callback', 'http://127.0.0.1/callback', LOOPBACK_REDIRECT]) expect(await answerTo({ client_id: clientId, redirect_uri: port }), port).toBe(200);
    const refused = [
      'http://127.0.0.1:50999/other',
      'http://127.0.0.1:50999/callbackx',
      'http://127.0.0.2:33418/callback',
      'https://127.0.0.1:33418/callback',
      'http://localhost:33418/callback',
      'http://[::1]:33418/callback',
      'http://127.0.0.1:50999/callback?x=1',
      'http://127.0.0.1:50999/callback#x',
      'http://127.0.0.1:50999/cb',
      'not a url',
    ];
    for (const asked of refused) expect(await answerTo({ client_id: clientId, redirect_uri: asked }), asked).toEqual([400, 'redirect_uri', expect.any(String)]);
    // Only a loopback URI's port may differ: an https one's may not, nor may an http URI on another host stand for it.
    expect(await answerTo({ client_id: clientId, redirect_uri: 'https://app.example.com:444/cb' })).toEqual([400, 'redirect_uri', expect.any(String)]);
    expect(await answerTo({ client_id: clientId, redirect_uri: 'http://app.example.com/cb' })).toEqual([400, 'redirect_uri', expect.any(String)]);
    // An https URI on the loopback interface is an https URI: its port is its own.
    expect(await answerTo({ client_id: clientId, redirect_uri: 'https://127.0.0.1/secure' })).toBe(200);
    expect(await answerTo({ client_id: clientId, redirect_uri: 'https://127.0.0.1:8443/secure' })).toEqual([400, 'redirect_uri', expect.any(String)]);
  });

  it('and the client are required, each named when missing', async () => {
    const clientId = await registeredClient(api);
    expect(await answerTo({ client_id: undefined })).toEqual([400, 'client_id', 'client_id is required']);
    expect(await answerTo({ client_id: clientId, redirect_uri: undefined })).toEqual([400, 'redirect_uri', 'redirect_uri is required']);
    expect(await answerTo({ client_id: `${clientId}x` })).toEqual([400, 'client_id', expect.stringContaining('is not a client registered here')]);
    expect(await answerTo({ client_id: clientId.slice(0, -1) })).toEqual([400, 'client_id', expect.stringContaining('is not a client registered here')]);
  });
});

describe('a client ID metadata document’s host', () => {
  const PRIVATE_HOST = 'its host is a private, loopback or link-local address';
  const RESOLVES_PRIVATE = 'its host resolves to a private, loopback or link-local address';
  const resolved: string[] = [];
  let answers: Record<string, { address: string; family: number }[]> = {};
  const realDns = outboundDns.resolve;
  beforeEach(() => {
    resolved.length = 0;
    outboundDns.resolve = async (hostname) => {
      resolved.push(hostname);
      const found = answers[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found as never;
    };
  });
  afterEach(() => {
    outboundDns.resolve = realDns;
  });

  it('written as a private, loopback or link-local address in any form is refused before any lookup', async () => {
    const forms = ['[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[fe80::1]', '[fc00::1]', '[::]', 'localhost', 'localhost.', 'LOCALHOST', 'app.localhost', '127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.1', '127.1', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0'];
    for (const host of forms) {
      const clientId = `https://${host}/client.json`;
      expect(await answerTo({ client_id: clientId }), host).toEqual([400, 'client_id', expect.stringContaining(PRIVATE_HOST)]);
    }
    expect(resolved).toEqual([]);
  });

  it('resolving to any private address, first or not, is refused, and nothing connects to it', async () => {
    const host = await hangingHost();
    answers = {
      'mixed.example': [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }],
      'loopback-first.example': [{ address: '127.0.0.1', family: 4 }, { address: '93.184.216.34', family: 4 }],
      'v6.example': [{ address: '::1', family: 6 }],
      'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
      'link-local.example': [{ address: 'fe80::1', family: 6 }],
      'metadata.example': [{ address: '169.254.169.254', family: 4 }],
      'nothing.example': [],
    };
    for (const name of Object.keys(answers)) {
      const clientId = `https://${name}:${host.port}/client.json`;
      expect(await answerTo({ client_id: clientId }), name).toEqual([400, 'client_id', expect.stringContaining(RESOLVES_PRIVATE)]);
    }
    expect(resolved.sort()).toEqual(Object.keys(answers).sort());
    expect(host.connections()).toBe(0);
    // A trailing dot names the same host, and is looked up as it.
    expect(await answerTo({ client_id: `https://mixed.example.:${host.port}/client.json` })).toEqual([400, 'client_id', expect.stringContaining(RESOLVES_PRIVATE)]);
    expect(resolved.filter((name) => name === 'mixed.example')).toHaveLength(2);
  });

  it('that no one resolves is refused with what the lookup said', async () => {
    expect(await answerTo({ client_id: 'https://unknown.example/client.json' })).toEqual([400, 'client_id', expect.stringContaining('getaddrinfo ENOTFOUND unknown.example')]);
  });
});

describe('a client ID metadata document', () => {
  it('must be JSON client metadata naming itself, with a redirect URI this server takes, within its size', async () => {
    const { documentBytes } = OAUTH_LIMITS;
    const own = (origin: string, path: string) => `${origin}${path}`;
    /** A document of exactly `bytes` bytes: its JSON, padded with the spaces JSON allows. */
    const sized = (origin: string, path: string, bytes: number) => {
      const json = JSON.stringify({ client_id: own(origin, path), redirect_uris: [LOOPBACK_REDIRECT] });
      return json + ' '.repeat(bytes - Buffer.byteLength(json));
    };
    const inPieces = (text: string) => text.match(/[^]{1,100}/g)!;
    const host = await clientDocumentHost((origin) => ({
      '/unnamed.json': { client_id: own(origin, '/unnamed.json'), redirect_uris: [LOOPBACK_REDIRECT] },
      '/not-json.json': 'client_id=x',
      '/not-metadata.json': { client_id: own(origin, '/not-metadata.json') },
      '/other.json': { client_id: own(origin, '/unnamed.json'), redirect_uris: [LOOPBACK_REDIRECT] },
      '/prefix.json': { client_id: own(origin, '/prefix.json/x'), redirect_uris: [LOOPBACK_REDIRECT] },
      '/native.json': { client_id: own(origin, '/native.json'), redirect_uris: ['vscode://example.client/callback', 'http://app.example.com/callback'] },
      '/full.json': sized(origin, '/full.json', documentBytes),
      '/over.json': sized(origin, '/over.json', documentBytes + 1),
      // Sent in pieces far smaller than the limit: it is the document's size that counts, not a piece's.
      '/full-in-pieces.json': inPieces(sized(origin, '/full-in-pieces.json', documentBytes)),
      '/over-in-pieces.json': inPieces(sized(origin, '/over-in-pieces.json', documentBytes + 1)),
      '/gone.json': { location: own(origin, '/unnamed.json') },
    }));
    trust(host);
    const refusal = async (path: string) => {
      const answer = await answerTo({ client_id: `${host.origin}${path}` });
      return answer === 200 ? 200 : answer[2]!.replace(`client_id: The client ID metadata document at ${host.origin}${path} `, '');
    };
    expect(await refusal('/unnamed.json')).toBe(200);
    expect(await refusal('/full.json')).toBe(200);
    expect(await refusal('/not-json.json')).toBe('is not JSON');
    expect(await refusal('/not-metadata.json')).toMatch(/^is not client metadata: /);
    expect(await refusal('/other.json')).toBe(`names another client_id (${host.origin}/unnamed.json)`);
    expect(await refusal('/prefix.json')).toBe(`names another client_id (${host.origin}/prefix.json/x)`);
    expect(await refusal('/native.json')).toMatch(/^has no redirect URI this server accepts: vscode:\/\/example.client\/callback must be an https URL/);
    expect(await refusal('/over.json')).toBe(`could not be read: it is larger than ${documentBytes} bytes`);
    expect(await refusal('/full-in-pieces.json')).toBe(200);
    expect(await refusal('/over-in-pieces.json')).toBe(`could not be read: it is larger than ${documentBytes} bytes`);
    expect(await refusal('/gone.json')).toBe('could not be read: its host answered 302 (a redirect, which is not followed)');
    expect(await refusal('/missing.json')).toBe('could not be read: its host answered 404');
    // Unnamed, the page names the client by its host.
    const page = await consentPage(`${api.url}${authorizePath({ client_id: `${host.origin}/unnamed.json` })}`);
    expect(await page.text()).toContain(`<strong>${host.hostPort}</strong> asks`);
  });

  it('is named only by an https URL with a path: any other client_id is looked up as a registered one', async () => {
    for (const clientId of ['https://clients.example', 'https://clients.example/', 'http://clients.example/client.json', 'ftp://clients.example/client.json', 'client_', 'client_0123456789ABCDEFGHJKMNPQR!']) {
      expect(await answerTo({ client_id: clientId }), clientId).toEqual([400, 'client_id', expect.stringContaining('is not a client registered here (register again) nor an https URL of a client ID metadata document')]);
    }
  });
});

describe('registration', () => {
  it('takes https redirect URIs, and http ones on the loopback interface only, none with a fragment', async () => {
    const register = (uri: string) => api.anonymous.post('/oauth/register', { client_name: 'Test assistant', redirect_uris: [uri] });
    for (const uri of ['https://app.example.com/cb', 'http://127.0.0.1:5000/cb', 'http://[::1]:5000/cb', 'http://localhost:5000/cb']) expect((await register(uri)).status, uri).toBe(201);
    const refusedUris = ['http://app.example.com/cb', 'http://127.0.0.2:5000/cb', 'http://localhost.example.com/cb', 'https://app.example.com/cb#top', 'not a url', 'javascript:alert(1)'];
    // The loopback interface takes http alone: another scheme on it is neither https nor a command-line client's http.
    // A minute on, as one address registers at most 10 clients a minute.
    await api.clock.advance(60_000);
    for (const uri of [...refusedUris, 'ftp://127.0.0.1/cb', 'ws://localhost:5000/cb']) {
      const refused = await register(uri);
      expect([refused.status, refused.body.error], uri).toEqual([400, expect.stringMatching(/^invalid_(redirect_uri|client_metadata)$/)]);
    }
  });
});

describe('client ID metadata documents, cached', () => {
  const document = (origin: string, path: string) => ({ client_id: `${origin}${path}`, client_name: `Client ${path}`, redirect_uris: [LOOPBACK_REDIRECT] });
  const CACHE_CONTROL: Record<string, string> = { '/ten-minutes.json': 'public, max-age=600', '/no-store.json': 'no-store', '/no-cache.json': 'no-cache, max-age=600', '/brief.json': 'max-age=10', '/year.json': 'max-age=31536000', '/quoted.json': 'max-age="600"' };
  const paths = ['/plain.json', ...Object.keys(CACHE_CONTROL)];
  const hostFor = () => clientDocumentHost((origin) => Object.fromEntries(paths.map((path) => [path, document(origin, path)])), (path): Record<string, string> => (CACHE_CONTROL[path] ? { 'cache-control': CACHE_CONTROL[path] } : {}));

  /** How long, in seconds, a document is read once: asked again just before, it is not fetched; at that second it is. */
  async function keptSeconds(host: Awaited<ReturnType<typeof hostFor>>, path: string, seconds: number) {
    const clientId = `${host.origin}${path}`;
    expect(await answerTo({ client_id: clientId })).toBe(200);
    await api.clock.advance(seconds * 1000 - 1);
    expect(await answerTo({ client_id: clientId })).toBe(200);
    expect(host.requests(path), `${path} kept until ${seconds} s`).toBe(1);
    await api.clock.advance(1);
    expect(await answerTo({ client_id: clientId })).toBe(200);
    expect(host.requests(path), `${path} read again at ${seconds} s`).toBe(2);
  }

  it('as long as their Cache-Control says, within a floor and a ceiling; without one, the default', async () => {
    const host = await hostFor();
    trust(host);
    await keptSeconds(host, '/plain.json', OAUTH_LIMITS.documentCacheSeconds);
    await keptSeconds(host, '/ten-minutes.json', 600);
    await keptSeconds(host, '/quoted.json', 600);
    await keptSeconds(host, '/no-store.json', OAUTH_LIMITS.documentCacheFloorSeconds);
    await keptSeconds(host, '/no-cache.json', OAUTH_LIMITS.documentCacheFloorSeconds);
    await keptSeconds(host, '/brief.json', OAUTH_LIMITS.documentCacheFloorSeconds);
    await keptSeconds(host, '/year.json', OAUTH_LIMITS.documentCacheCeilingSeconds);
    expect([OAUTH_LIMITS.documentCacheFloorSeconds, OAUTH_LIMITS.documentCacheSeconds, OAUTH_LIMITS.documentCacheCeilingSeconds]).toEqual([60, 300, 86_400]);
  });

  it('a refusal too, for a short while: a missing document is asked again only after it', async () => {
    const host = await hostFor();
    trust(host);
    const clientId = `${host.origin}/missing.json`;
    expect(await answerTo({ client_id: clientId })).toEqual([400, 'client_id', expect.stringContaining('its host answered 404')]);
    await api.clock.advance(OAUTH_LIMITS.documentFailureSeconds * 1000 - 1);
    expect(await answerTo({ client_id: clientId })).toEqual([400, 'client_id', expect.stringContaining('its host answered 404')]);
    expect(host.requests('/missing.json')).toBe(1);
    await api.clock.advance(1);
    await answerTo({ client_id: clientId });
    expect(host.requests('/missing.json')).toBe(2);
    expect(OAUTH_LIMITS.documentFailureSeconds).toBe(30);
  });

  it('at most documentCacheEntries, the least recently used forgotten first', async () => {
    const many = Array.from({ length: OAUTH_LIMITS.documentCacheEntries + 1 }, (_, i) => `/many-${i}.json`);
    const host = await clientDocumentHost((origin) => Object.fromEntries(many.map((path) => [path, document(origin, path)])));
    trust(host);
    const ask = (path: string) => answerTo({ client_id: `${host.origin}${path}` });
    for (const path of many.slice(0, -1)) expect(await ask(path)).toBe(200);
    // The first is used again, so the second is the least recently used when one more comes.
    expect(await ask(many[0]!)).toBe(200);
    expect(await ask(many.at(-1)!)).toBe(200);
    expect(await ask(many[0]!)).toBe(200);
    expect(await ask(many[1]!)).toBe(200);
    expect([host.requests(many[0]!), host.requests(many[1]!), host.requests(many[2]!)]).toEqual([1, 2, 1]);
  });
});

describe('a client ID metadata document’s host that never answers', () => {
  it('is asked once by two fetches at once, both refused when the one deadline passes, then not asked again for a while', async () => {
    const host = await hangingHost();
    trust(host);
    const clientId = `${host.origin}/client.json`;
    // Each fetch looks its host up as it opens its connection: counted, as the second connection may not be accepted before the deadline.
    const lookups: string[] = [];
    const realDns = outboundDns.resolve;
    outboundDns.resolve = (hostname, family) => (lookups.push(hostname), realDns(hostname, family));
    onTestFinished(() => void (outboundDns.resolve = realDns));
    let settled = 0;
    const both = [resolveClient(clientId), resolveClient(clientId)].map((fetched) => fetched.then(() => 'resolved', (error: OAuthError) => ((settled += 1), [error.error, error.description])));
    await host.received(1);
    await api.clock.advance(OAUTH_LIMITS.documentDeadlineMs - 1);
    expect([settled, host.open()]).toEqual([0, 1]);
    await api.clock.advance(1);
    expect(await Promise.all(both)).toEqual([0, 1].map(() => ['invalid_client', `The client ID metadata document at ${clientId} could not be read: no answer within 2 s`]));
    await host.released();
    expect([lookups, host.connections()]).toEqual([['localhost'], 1]);
    // The failure is kept: the consent page asked at once does not ask the host.
    expect(await answerTo({ client_id: clientId })).toEqual([400, 'client_id', expect.stringContaining('no answer within 2 s')]);
    expect(host.connections()).toBe(1);
  });

  it.each([
    ['that never answers', hangingHost],
    ['that answers 200 and never ends the document', tricklingHost],
  ])('leaves no connection open at a host %s once the deadline refuses the fetch', async (_, start) => {
    const host = await start();
    trust(host);
    forgetClientDocuments();
    const clientIds = Array.from({ length: 5 }, (_, i) => `${host.origin}/held-${i}.json`);
    const fetches = clientIds.map((clientId) => resolveClient(clientId).then(() => 'resolved', (error: OAuthError) => error.description));
    await host.received(clientIds.length);
    expect(host.openConnections()).toBe(clientIds.length);
    await api.clock.advance(OAUTH_LIMITS.documentDeadlineMs);
    expect(await Promise.all(fetches)).toEqual(clientIds.map((clientId) => `The client ID metadata document at ${clientId} could not be read: no answer within 2 s`));
    // Every socket is closed by the fetch's own deadline, not left to the host or an agent's idle timer.
    await vi.waitFor(() => expect(host.openConnections()).toBe(0));
  });

  it('leaves no connection open after the consent page answers 400 for documents that never end', async () => {
    const host = await tricklingHost();
    trust(host);
    forgetClientDocuments();
    const pages = Array.from({ length: 5 }, (_, i) => answerTo({ client_id: `${host.origin}/page-${i}.json` }));
    await host.received(pages.length);
    await api.clock.advance(OAUTH_LIMITS.documentDeadlineMs);
    expect((await Promise.all(pages)).map((answer) => (answer === 200 ? 200 : answer[0]))).toEqual(pages.map(() => 400));
    await vi.waitFor(() => expect(host.openConnections()).toBe(0));
  });

  it('keeps no connection to a host once its answer is read, even one it refused (a 404, a redirect)', async () => {
    const host = await clientDocumentHost((origin) => ({ '/moved.json': { location: `${origin}/elsewhere.json` } }));
    trust(host);
    forgetClientDocuments();
    const answers = await Promise.all(['/missing.json', '/moved.json', '/gone.json'].map((path) => answerTo({ client_id: `${host.origin}${path}` })));
    expect(answers.map((answer) => (answer === 200 ? 200 : answer[0]))).toEqual([400, 400, 400]);
    await vi.waitFor(() => expect(host.openConnections()).toBe(0));
  });

  it('flooded: holds no more than the route’s reserved concurrency in flight, answers the rest 503 with Retry-After, and other routes are answered meanwhile', async () => {
    const host = await hangingHost();
    trust(host);
    const bound = getOAuthAuthorize.reservedConcurrency!;
    const { apiKey } = await api.organization();
    const answered: unknown[] = [];
    let turnedAway = () => {};
    const allTurnedAway = new Promise<void>((resolve) => (turnedAway = resolve));
    const flood = Array.from({ length: bound * 3 }, (_, i) => {
      const answer = authorize({ client_id: `${host.origin}/flood-${i}.json` });
      const count = (outcome: unknown) => void (answered.push(outcome) === bound * 2 && turnedAway());
      answer.then(count, count);
      return answer;
    });
    await Promise.all([host.received(bound), allTurnedAway]);
    expect([host.open(), host.connections()]).toEqual([bound, bound]);
    for (const res of answered as Awaited<ReturnType<typeof authorize>>[]) expect([res.status, res.body?.error?.code, res.headers?.['retry-after']]).toEqual([503, 'SERVICE_UNAVAILABLE', '1']);
    // Meanwhile a keyed route, and the token endpoint, are answered.
    expect((await api.as(apiKey).get('/v1/leads')).status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'unknown', client_id: await registeredClient(api) })).status).toBe(400);
    expect(host.connections()).toBe(bound);
    await api.clock.advance(OAUTH_LIMITS.documentDeadlineMs);
    const statuses = (await Promise.all(flood)).map((res) => res.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(bound);
    await host.released();
    // The reserve is free again: a document whose fetch failed is refused from the failure kept (one the flood turned
    // away was never fetched, and would be fetched now, from a host that never answers).
    const fetched = statuses.indexOf(400);
    expect((await authorize({ client_id: `${host.origin}/flood-${fetched}.json` })).status).toBe(400);
  });
});

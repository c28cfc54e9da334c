import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { sourceLimitKeys } from '#shared/limits/per-source';
import { useTestApi } from '../../test/support/api';
import { requestFrom, type AnsweredFrom } from '../../test/support/from-address';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';
import { OAUTH_SOURCE_LIMITS } from './source-limits';

const api = useTestApi({ clock: 'manual' });

const from = (address: string, method: string, path: string, body?: string, headers?: Record<string, string>) => requestFrom(address, method, api.url + path, body, headers);

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const registration = JSON.stringify({ client_name: 'Flood', redirect_uris: [LOOPBACK_REDIRECT] });
const register = (address: string) => from(address, 'POST', '/oauth/register', registration, JSON_TYPE);
const tokenFrom = (address: string, fields: Record<string, string>) => from(address, 'POST', '/oauth/token', new URLSearchParams(fields).toString(), FORM);
/** A consent post no page made (no CSRF token): 400 when answered at all. */
const junkConsent = (address: string) => from(address, 'POST', '/oauth/authorize', 'decision=allow', FORM);

const statuses = (answers: AnsweredFrom[]) => answers.map((answer) => answer.status);
const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
/** One after the other: the exact limit is about order, not a race. */
async function inTurn<T>(n: number, make: () => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  for (let i = 0; i < n; i++) answers.push(await make());
  return answers;
}

/** `limit` + 10 requests at once, in a new minute: exactly `limit` answered as `answered`, the rest 429. */
async function floodAtOnce(limit: number, send: () => Promise<AnsweredFrom>, answered: number) {
  await intoNextWindow(60_000);
  const counted = statuses(await times(limit + 10, send)).reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
  expect(counted).toEqual({ [answered]: limit, 429: 10 });
}

/** Moves the manual clock `offsetMs` into the next window of `windowMs`. */
async function intoNextWindow(windowMs: number, offsetMs = 1000) {
  await api.advanceTime((Math.floor(api.clock.now() / windowMs) + 1) * windowMs + offsetMs - api.clock.now());
}

/** A client registered and granted by a key of a new organization, from 127.0.0.1: its refresh token. */
async function grantedClient() {
  const { apiKey } = await api.organization();
  const clientId = await registeredClient(api);
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'read' });
  const code = redirectedWith(await consent(`${api.url}/oauth/authorize?${query}`, apiKey)).get('code')!;
  const exchanged = await tokenFrom('127.0.0.1', { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  return { clientId, refreshToken: exchanged.body.refresh_token as string };
}

const { registerPerMinute, registerPerHour, authorizePagePerMinute, consentPerMinute, tokenPerMinute, tokenPerClientPerMinute } = OAUTH_SOURCE_LIMITS;

describe('POST /oauth/register, per client address', () => {
  it('registers the limit in a minute, refuses the next with OAuth’s 429 and Retry-After, and registers again the next minute', async () => {
    await intoNextWindow(3_600_000);
    const answers = await inTurn(registerPerMinute.limit + 1, () => register('127.0.0.2'));
    expect(statuses(answers)).toEqual([...Array<number>(registerPerMinute.limit).fill(201), 429]);
    expect(answers.at(-1)!.body).toEqual({ error: 'temporarily_unavailable', error_description: 'Too many requests from this address or client; retry after 59 s' });
    expect(answers.at(-1)!.headers['retry-after']).toBe('59');
    // Another address, and one that starts with this one, are other sources.
    expect((await register('127.0.0.3')).status).toBe(201);
    expect((await register('127.0.0.22')).status).toBe(201);
    await api.advanceTime(59_000);
    expect((await register('127.0.0.2')).status).toBe(201);
  });

  it(`caps a client address at ${registerPerHour.limit} registrations an hour, however they are spread over its minutes`, async () => {
    await intoNextWindow(3_600_000);
    const perMinute = registerPerMinute.limit;
    const minutes = Math.ceil(registerPerHour.limit / perMinute);
    for (let minute = 0; minute < minutes; minute++) {
      const answers = await inTurn(Math.min(perMinute, registerPerHour.limit - minute * perMinute), () => register('127.0.0.4'));
      expect(statuses(answers).every((status) => status === 201)).toBe(true);
      await api.advanceTime(60_000);
    }
    const refused = await register('127.0.0.4');
    expect(refused.status).toBe(429);
    // The hour began a second before the first registration; `minutes` minutes have passed since.
    expect(refused.headers['retry-after']).toBe(String(3600 - 1 - minutes * 60));
    await intoNextWindow(3_600_000);
    expect((await register('127.0.0.4')).status).toBe(201);
  });

  it('lets no more than the limit through when a flood arrives at once', async () => {
    await floodAtOnce(registerPerMinute.limit, () => register('127.0.0.5'), 201);
  });

  it('counts the connection’s address, whatever X-Forwarded-For or a viewer header the caller writes', async () => {
    await intoNextWindow(3_600_000);
    let n = 0;
    const forged = () => from('127.0.0.15', 'POST', '/oauth/register', registration, { ...JSON_TYPE, 'x-forwarded-for': `198.51.100.${++n}`, 'x-viewer-address': `203.0.113.${n}` });
    expect(statuses(await inTurn(registerPerMinute.limit + 1, forged))).toEqual([...Array<number>(registerPerMinute.limit).fill(201), 429]);
  });

  it('costs one UpdateItem per limit before the registration, and a refused one a single UpdateItem that stores nothing', async () => {
    await intoNextWindow(3_600_000);
    expect(await countDynamoCalls(() => register('127.0.0.6'))).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'PutItemCommand']);
    await inTurn(registerPerMinute.limit - 1, () => register('127.0.0.6'));
    expect(await countDynamoCalls(() => register('127.0.0.6'))).toEqual(['UpdateItemCommand']);
  });

  it('leaves a granted client’s refresh answered while the same address floods registration', async () => {
    await intoNextWindow(3_600_000);
    const { clientId, refreshToken } = await grantedClient();
    const flood = await times(registerPerMinute.limit + 5, () => register('127.0.0.1'));
    expect(statuses(flood)).toContain(429);
    const refreshed = await tokenFrom('127.0.0.1', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });
});

describe('GET /oauth/authorize (the consent page), per client address', () => {
  /** The consent page for `clientId`, asked for from `address`. */
  const page = (address: string, clientId: string) => {
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'read' });
    return from(address, 'GET', `/oauth/authorize?${query}`);
  };

  it('answers the limit of pages in a minute, refuses the next with the envelope’s 429 before reading or fetching anything, and leaves other addresses answered', async () => {
    const clientId = await registeredClient(api);
    await intoNextWindow(60_000, 30_000);
    const answers = await inTurn(authorizePagePerMinute.limit + 1, () => page('127.0.0.12', clientId));
    expect(statuses(answers)).toEqual([...Array<number>(authorizePagePerMinute.limit).fill(200), 429]);
    expect(answers.at(-1)!.body).toMatchObject({ success: false, error: { status: 429, code: 'RATE_LIMITED' } });
    expect(answers.at(-1)!.headers['retry-after']).toBe('30');
    // A client named by its document's URL: refused before its host is looked up, which would answer 400.
    const documentClient = 'https://client.invalid/client.json';
    expect((await page('127.0.0.12', documentClient)).status).toBe(429);
    expect((await page('127.0.0.13', documentClient)).body).toMatchObject({ error: { status: 400, details: [{ path: 'client_id' }] } });
    expect((await page('127.0.0.122', clientId)).status).toBe(200);
    expect(await countDynamoCalls(() => page('127.0.0.12', clientId))).toEqual(['UpdateItemCommand']);
    await intoNextWindow(60_000);
    expect((await page('127.0.0.12', clientId)).status).toBe(200);
  });

  // The route's own reserve is ten invocations (a page may fetch): a race for the last two of the budget fits in it.
  it('lets no more than the limit through when the last requests arrive at once', async () => {
    const clientId = await registeredClient(api);
    await intoNextWindow(60_000);
    expect(statuses(await inTurn(authorizePagePerMinute.limit - 2, () => page('127.0.0.14', clientId))).every((status) => status === 200)).toBe(true);
    const raced = statuses(await times(6, () => page('127.0.0.14', clientId)));
    expect(raced.sort()).toEqual([200, 200, 429, 429, 429, 429]);
  });
});

describe('POST /oauth/authorize (the consent post), per client address', () => {
  it('answers the limit of posts in a minute, refuses the next with the envelope’s 429, and leaves other addresses answered', async () => {
    await intoNextWindow(60_000, 30_000);
    const answers = await inTurn(consentPerMinute.limit + 1, () => junkConsent('127.0.0.7'));
    expect(statuses(answers)).toEqual([...Array<number>(consentPerMinute.limit).fill(400), 429]);
    expect(answers.at(-1)!.body).toMatchObject({ success: false, error: { status: 429, code: 'RATE_LIMITED' } });
    expect(answers.at(-1)!.headers['retry-after']).toBe('30');
    expect((await junkConsent('127.0.0.8')).status).toBe(400);
    expect((await junkConsent('127.0.0.77')).status).toBe(400);
    expect(await countDynamoCalls(() => junkConsent('127.0.0.7'))).toEqual(['UpdateItemCommand']);
    await intoNextWindow(60_000);
    expect((await junkConsent('127.0.0.7')).status).toBe(400);
  });

  it('lets no more than the limit through when a flood arrives at once', async () => {
    await floodAtOnce(consentPerMinute.limit, () => junkConsent('127.0.0.9'), 400);
  });
});

describe('POST /oauth/token, per client address and per client', () => {
  it('refuses an address past its limit, while another address refreshes the same client', async () => {
    await intoNextWindow(60_000);
    const { clientId, refreshToken } = await grantedClient();
    // The flood names the granted client: past its own limit, the address spends nothing more of the client's.
    const flood = await inTurn(tokenPerMinute.limit, () => tokenFrom('127.0.0.10', { grant_type: 'refresh_token', refresh_token: 'junk', client_id: clientId }));
    expect(statuses(flood).every((status) => status === 400)).toBe(true);
    const refused = await tokenFrom('127.0.0.10', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('temporarily_unavailable');
    const refreshed = await tokenFrom('127.0.0.11', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    // A refused request reads nothing: the address's counter alone.
    expect(await countDynamoCalls(() => tokenFrom('127.0.0.10', { grant_type: 'refresh_token', refresh_token: 'junk', client_id: clientId }))).toEqual(['UpdateItemCommand']);
  });

  it('counts a request without client_id against its address alone, and a client id of 2 000 characters (4 KB) by its hash', async () => {
    await intoNextWindow(60_000);
    expect((await tokenFrom('127.0.0.12', { grant_type: 'refresh_token', refresh_token: 'junk' })).body).toMatchObject({ error: 'invalid_request' });
    const long = await tokenFrom('127.0.0.12', { grant_type: 'refresh_token', refresh_token: 'junk', client_id: `client_${'é'.repeat(1993)}` });
    expect(long.status).toBe(401);
  });

  it('refuses a client past its own limit from every address, and answers another client from the same address', async () => {
    const windowStart = (Math.floor(api.clock.now() / 60_000) + 1) * 60_000;
    await intoNextWindow(60_000);
    const junk = (address: string, clientId: string) => tokenFrom(address, { grant_type: 'refresh_token', refresh_token: 'junk', client_id: clientId });
    // Its minute so far, as many addresses left it (each below its own limit): one request short of the client's limit.
    const key = sourceLimitKeys.sourceWindow(tokenPerClientPerMinute.name, 'client_flooded', windowStart);
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...key, count: tokenPerClientPerMinute.limit - 1 } }));
    expect((await junk('127.0.1.1', 'client_flooded')).status).toBe(401);
    const refused = await junk('127.0.1.2', 'client_flooded');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('temporarily_unavailable');
    expect((await junk('127.0.1.2', 'client_other')).status).toBe(401);
  });

  it('lets no more than the limit through when a flood arrives at once', async () => {
    await floodAtOnce(tokenPerMinute.limit, () => tokenFrom('127.0.0.13', { grant_type: 'refresh_token', refresh_token: 'junk', client_id: 'client_x' }), 401);
  });
});

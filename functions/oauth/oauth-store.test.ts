import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { TTL_ATTRIBUTE } from '#shared/table';
import { createApiKey, revokeApiKey } from '#shared/auth/api-keys';
import { useTestApi } from '../../test/support/api';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';
import { OAUTH_SECRET_ENTITY } from './entity';
import { findSecret, principalOf } from './secrets';
import { recordAwsCalls } from '../../infra/local/strict-access';

/**
 * What the token endpoint keeps and refuses beyond a well-behaved client's path: a code or refresh token it never
 * issued, one used again after it would have expired, the resource it was issued for, the items it writes and the
 * writer they are attributed to.
 */
const api = useTestApi({ clock: 'manual', events: true });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const token = (fields: Record<string, string>) => api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });

/** A client consented to with `apiKey`, and the code exchange it would send. */
async function consented(apiKey: string) {
  const clientId = await registeredClient(api);
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's', resource: `${api.url}/mcp`, scope: 'read' });
  const code = redirectedWith(await consent(`${api.url}/oauth/authorize?${query}`, apiKey)).get('code')!;
  return { clientId, exchange: { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId } };
}

/** An organization's key named `Granting`, and a client consented to with it. */
async function issued() {
  const { organizationId } = await api.organization();
  const { key, token: apiKey } = await createApiKey(organizationId, null, 'Granting', 'full');
  return { organizationId, keyId: key.keyId, apiKey, ...(await consented(apiKey)) };
}

const refreshOf = (clientId: string, refreshToken: string) => ({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

const grantsOf = async (apiKey: string) => (await api.as(apiKey).get('/v1/oauth/grants')).body.grants as { id: string; clientId: string }[];

describe('the token endpoint refuses', () => {
  it('a code or a refresh token it never issued, saying so', async () => {
    const { exchange, clientId } = await issued();
    expect((await token({ ...exchange, code: 'never-issued' })).body).toEqual({ error: 'invalid_grant', error_description: 'code is not one this server issued' });
    expect((await token(refreshOf(clientId, 'never-issued'))).body).toEqual({ error: 'invalid_grant', error_description: 'refresh_token is not one this server issued' });
    expect((await token(exchange)).status).toBe(200);
  });

  it('a code or refresh token of another client, and a redirect URI not the code’s, naming what differs', async () => {
    const { exchange } = await issued();
    const other = await registeredClient(api);
    expect((await token({ ...exchange, client_id: other })).body).toEqual({ error: 'invalid_grant', error_description: 'code was issued to another client_id' });
    expect((await token({ ...exchange, redirect_uri: `${LOOPBACK_REDIRECT}x` })).body).toEqual({ error: 'invalid_grant', error_description: 'redirect_uri must be the one the code was issued to' });
    const tokens = (await token(exchange)).body;
    expect((await token(refreshOf(other, tokens.refresh_token))).body).toEqual({ error: 'invalid_grant', error_description: 'refresh_token was issued to another client_id' });
  });

  it('a resource other than this server’s MCP server, one character off: invalid_target for a code and for a refresh token', async () => {
    const { exchange, clientId } = await issued();
    const mcp = `${api.url}/mcp`;
    for (const resource of [`${mcp}/`, mcp.slice(0, -1), `${api.url}/v1`]) {
      expect((await token({ ...exchange, resource })).body, resource).toEqual({ error: 'invalid_target', error_description: `resource must be ${mcp}: this server issues tokens for its own MCP server only` });
    }
    const tokens = (await token({ ...exchange, resource: mcp })).body;
    expect((await token({ ...refreshOf(clientId, tokens.refresh_token), resource: `${mcp}/` })).body).toEqual({ error: 'invalid_target', error_description: `resource must be ${mcp}: this server issues tokens for its own MCP server only` });
    expect((await token({ ...refreshOf(clientId, tokens.refresh_token), resource: mcp })).status).toBe(200);
  });
});

describe('a code or refresh token used again', () => {
  it('after the code would have expired: a reuse, not an expiry, and the grant is revoked', async () => {
    const { exchange, apiKey, clientId } = await issued();
    const tokens = (await token(exchange)).body;
    await api.advanceTime('PT61S');
    expect((await token(exchange)).body).toEqual({ error: 'invalid_grant', error_description: 'code was already used: the grant it belongs to is revoked; authorize again' });
    expect(await grantsOf(apiKey)).toEqual([]);
    expect((await token(refreshOf(clientId, tokens.refresh_token))).body).toEqual({ error: 'invalid_grant', error_description: 'the grant was revoked; authorize again' });
  });

  it('a refresh token after it would have expired: a reuse, and the grant is revoked', async () => {
    const { exchange, apiKey, clientId } = await issued();
    const first = (await token(exchange)).body;
    expect((await token(refreshOf(clientId, first.refresh_token))).status).toBe(200);
    await api.advanceTime('P30DT1M');
    expect((await token(refreshOf(clientId, first.refresh_token))).body).toEqual({ error: 'invalid_grant', error_description: 'refresh_token was already used: the grant it belongs to is revoked; authorize again' });
    expect(await grantsOf(apiKey)).toEqual([]);
  });

  it('revokes the grant as the granting key, for the client, from the token request: its audit entry says so', async () => {
    const { exchange, apiKey, keyId, clientId } = await issued();
    const made = await token(exchange);
    const [grant] = await grantsOf(apiKey);
    const reused = await token(exchange);
    expect(reused.status).toBe(400);
    await api.eventsCaughtUp();
    const entries = (await api.as(apiKey).get(`/v1/audit-log?resourceType=oauth_grant&resourceId=${grant!.id}`)).body.entries;
    const writer = (res: typeof made) => ({ keyId, keyName: 'Granting', via: 'mcp', clientId, method: 'POST', path: '/oauth/token', requestId: res.headers.get('x-request-id') });
    expect(entries.map(({ action, keyId, keyName, via, clientId, method, path, requestId }: Record<string, unknown>) => ({ action, keyId, keyName, via, clientId, method, path, requestId }))).toEqual([
      { action: 'deleted', ...writer(reused) },
      { action: 'created', ...writer(made) },
    ]);
    expect(made.headers.get('x-request-id')).toMatch(/\S/);
    expect(made.headers.get('x-request-id')).not.toBe(reused.headers.get('x-request-id'));
  });
});

describe('what a grant leaves in the table', () => {
  it('a code, an access token, its MCP token and a refresh token, each with its own id and kept a day past its expiry', async () => {
    const { exchange, organizationId } = await issued();
    expect((await token(exchange)).status).toBe(200);
    const { Items = [] } = await dynamo.send(new ScanCommand({ TableName: config.tableName, FilterExpression: 'entity = :entity AND organizationId = :org', ExpressionAttributeValues: { ':entity': OAUTH_SECRET_ENTITY, ':org': organizationId } }));
    const prefixes: Record<string, RegExp> = { code: /^oac_/, access: /^oat_/, mcp: /^oat_/, refresh: /^ort_/ };
    expect(Items.map((item) => item.kind).sort()).toEqual(['access', 'code', 'mcp', 'refresh']);
    for (const item of Items) {
      expect(item.id, item.kind).toMatch(prefixes[item.kind]!);
      expect(item[TTL_ATTRIBUTE], item.kind).toBe(Math.floor(Date.parse(item.expiresAt) / 1000) + 86_400);
    }
    expect(new Set(Items.map((item) => item.id)).size).toBe(4);
  });
});

describe('the grants listed', () => {
  it('newest first, and only those whose granting key is still active', async () => {
    const { organizationId, apiKey, exchange } = await issued();
    expect((await token(exchange)).status).toBe(200);
    const [older] = await grantsOf(apiKey);
    await api.advanceTime('PT1S');
    const { token: otherKey, key: other } = await createApiKey(organizationId, null, 'Other', 'full');
    const newer = await consented(otherKey);
    expect((await token(newer.exchange)).status).toBe(200);
    const listed = await grantsOf(apiKey);
    expect(listed.map((grant) => grant.clientId)).toEqual([newer.clientId, older!.clientId]);
    await revokeApiKey(organizationId, other.keyId);
    expect((await grantsOf(apiKey)).map((grant) => grant.id)).toEqual([older!.id]);
  });
});

describe('a stored secret, found by its value', () => {
  it('is found by a value of its kind alone: a value of another kind (a refresh token as an access token) is refused with no read', async () => {
    const { exchange } = await issued();
    const { access_token: accessToken, refresh_token: refreshToken } = (await token(exchange)).body as { access_token: string; refresh_token: string };
    let found: Awaited<ReturnType<typeof findSecret>>;
    // This test's own reads: not those of the workers running beside it (each made by a function).
    const readsOf = async (find: () => Promise<void>) => (await recordAwsCalls(find)).filter((call) => !call.functionId).flatMap((call) => call.requests.map((request) => request.action));
    expect(await readsOf(async () => void (found = await findSecret(accessToken, 'access')))).toEqual(['dynamodb:Query']);
    expect(found).toMatchObject({ kind: 'access' });
    expect(await readsOf(async () => void (found = await findSecret(refreshToken, 'access')))).toEqual([]);
    expect(found).toBeUndefined();
    expect(await findSecret(refreshToken, 'refresh')).toMatchObject({ kind: 'refresh' });
  });
});

describe("a grant's last use", () => {
  it('is recorded at its first use, then again only once a minute has passed: not at 60 s, at 60.001 s', async () => {
    const { exchange, apiKey } = await issued();
    const { access_token: accessToken } = (await token(exchange)).body as { access_token: string };
    const secret = (await findSecret(accessToken, 'access'))!;
    const lastUsed = async () => ((await api.as(apiKey).get('/v1/oauth/grants')).body.grants as { lastUsedAt: string | null }[])[0]!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    // Ten minutes into the access token's hour.
    const first = Date.parse(secret.expiresAt) - 50 * 60_000;
    expect(await principalOf(secret, first)).toMatchObject({ grantId: secret.grantId });
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    await principalOf(secret, first + 60_000);
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    await principalOf(secret, first + 60_001);
    expect(await lastUsed()).toBe(new Date(first + 60_001).toISOString());
  });
});

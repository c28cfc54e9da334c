import { describe, expect, it } from 'vitest';
import { createApiKey } from '#shared/auth/api-keys';
import { OAUTH_LIMITS } from '../functions/oauth/settings';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../infra/cdk/options';
import { useTestApi } from './support/api';
import { memberSession } from './support/member-session';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from './support/oauth';

/**
 * A credential that ends by itself (a key's expiry, a session's idle end, an access token's life) ends at that
 * millisecond, though the gateway still holds the answer it cached before: the function refuses it from the context's
 * `endsAt`. The clock is moved by hand; the cache keeps real time, as deployed, so every request here after the first
 * is answered from it.
 */
const api = useTestApi({ clock: 'manual', authorizerCacheTtlMs: AUTHORIZER_CACHE_TTL_SECONDS.default * 1000 });

const rpc = (method: string) => ({ jsonrpc: '2.0', id: 1, method, params: {} });

describe('a credential ending by itself while the gateway holds its answer', () => {
  it('refuses an API key from its expiry, to the millisecond, and not before', async () => {
    const { organizationId } = await api.organization();
    const expiresAt = new Date(api.clock.now() + 10 * 60_000);
    const key = api.as((await createApiKey(organizationId, expiresAt, 'Short-lived', 'read')).token);
    expect((await key.get('/v1/leads')).status).toBe(200);
    await api.advanceTime(expiresAt.getTime() - api.clock.now() - 1);
    expect((await key.get('/v1/leads')).status).toBe(200);
    await api.advanceTime(1);
    const refused = await key.get('/v1/leads');
    expect([refused.status, refused.body.error.status]).toEqual([401, 401]);
  });

  it('refuses a session from its idle end, to the millisecond', async () => {
    const { organizationId } = await api.organization();
    const session = await memberSession(api, organizationId, { role: 'MEMBER' });
    const endsAt = Date.parse((await session.get('/v1/me')).body.session.expiresAt);
    await api.advanceTime(endsAt - api.clock.now() - 1);
    expect((await session.get('/v1/leads')).status).toBe(200);
    await api.advanceTime(1);
    expect((await session.get('/v1/leads')).status).toBe(401);
    expect((await session.post('/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' })).status).toBe(401);
  });

  it('refuses an access token on /mcp from the end of its life, with the challenge that sends the client to authorize again', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'read' });
    const code = redirectedWith(await consent(`${api.url}/oauth/authorize?${query}`, apiKey)).get('code')!;
    const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
    const issuedAt = api.clock.now();
    const tokens = (await api.anonymous.request('POST', '/oauth/token', { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })).body;
    const mcp = api.as(tokens.access_token);
    expect((await mcp.post('/mcp', rpc('tools/list'))).status).toBe(200);
    await api.advanceTime(issuedAt + OAUTH_LIMITS.accessTokenSeconds * 1000 - api.clock.now() + 1_000);
    const refused = await mcp.post('/mcp', rpc('tools/list'));
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([401, expect.stringContaining('resource_metadata=')]);
  });
});

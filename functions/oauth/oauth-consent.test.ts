import { describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '#shared/auth/api-keys';
import { API_KEY_SCOPES, scopeAllows } from '#shared/auth/scopes';
import { covers, mayGrant, narrowerScope } from './scopes';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient, consentPage } from '../../test/support/oauth';

/** The authorization endpoint and its consent page: what it refuses before the person answers, and what it shows again. */
const api = useTestApi();

const authorizeUrl = (clientId: string, challenge: string, params: Record<string, string> = {}) =>
  `${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz', resource: `${api.url}/mcp`, scope: 'read', ...params })}`;

describe('the authorization endpoint, before the person has answered the page', () => {
  const HTTPS_REDIRECT = 'https://app.example.com.attacker.net/steal';

  it('answers every fault of a freshly registered client’s request 400 naming the field, never redirecting to its https redirect URI', async () => {
    const clientId = await registeredClient(api, [HTTPS_REDIRECT]);
    const { challenge } = pkce();
    const faults: [Record<string, string>, string][] = [
      [{ response_type: 'token' }, 'response_type'],
      [{ response_type: 'code ' }, 'response_type'],
      [{ response_type: '' }, 'response_type'],
      [{ code_challenge: '' }, 'code_challenge'],
      [{ code_challenge_method: 'plain' }, 'code_challenge_method'],
      [{ code_challenge_method: 's256' }, 'code_challenge_method'],
      [{ code_challenge: challenge.slice(0, -1) }, 'code_challenge'],
      [{ code_challenge: `${challenge}A` }, 'code_challenge'],
      [{ scope: 'admin' }, 'scope'],
      [{ scope: 'read writes' }, 'scope'],
      [{ resource: `${api.url}/mcp/` }, 'resource'],
      [{ resource: 'https://other.example/mcp' }, 'resource'],
    ];
    for (const [params, field] of faults) {
      const res = await consentPage(authorizeUrl(clientId, challenge, { redirect_uri: HTTPS_REDIRECT, ...params }));
      expect([res.status, res.headers.get('location')], JSON.stringify(params)).toEqual([400, null]);
      expect(((await res.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path, JSON.stringify(params)).toBe(field);
    }
  });

  it('shows the consent page for the same request without a fault, naming the redirect URI’s whole host', async () => {
    const clientId = await registeredClient(api, [HTTPS_REDIRECT]);
    const res = await consentPage(authorizeUrl(clientId, pkce().challenge, { redirect_uri: HTTPS_REDIRECT }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You will be sent back to <strong>app.example.com.attacker.net</strong>.');
  });

  it('redirects only on the person’s answer: a denial goes back with access_denied', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api, [HTTPS_REDIRECT]);
    const res = await consent(authorizeUrl(clientId, pkce().challenge, { redirect_uri: HTTPS_REDIRECT }), apiKey, { decision: 'deny' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^https:\/\/app\.example\.com\.attacker\.net\/steal\?error=access_denied&/);
  });
});

describe('the consent post', () => {
  it('a scope beyond the key’s: the page again, saying so, with a new CSRF token; no code', async () => {
    const { organizationId } = await api.organization();
    const { token: readKey } = await createApiKey(organizationId, null, 'Reader', 'read');
    const { token: writeKey } = await createApiKey(organizationId, null, 'Writer', 'write');
    const clientId = await registeredClient(api);
    for (const [apiKey, keyScope, scope] of [[readKey, 'read', 'write'], [readKey, 'read', 'full'], [writeKey, 'write', 'full']] as const) {
      const res = await consent(authorizeUrl(clientId, pkce().challenge), apiKey, { scope });
      expect([res.status, res.headers.get('location')], scope).toEqual([200, null]);
      expect(await res.text()).toContain(`<p role="alert"><strong>That key may grant ${keyScope} at most, not ${scope}: choose less, or paste a key that may.</strong></p>`);
      expect(res.headers.get('set-cookie')).toMatch(/^oauth_csrf=/);
    }
    // Within the key's scope, the same consent issues a code.
    expect(redirectedWith(await consent(authorizeUrl(clientId, pkce().challenge), writeKey, { scope: 'write' })).get('code')).toMatch(/^sp_oac_/);
  });

  it('a consent with a key that is not an active key: the page again, saying so, with a new CSRF token; no code', async () => {
    const { organizationId } = await api.organization();
    const { key, token: revoked } = await createApiKey(organizationId, null, 'Old', 'full');
    await revokeApiKey(organizationId, key.keyId);
    const clientId = await registeredClient(api);
    for (const apiKey of ['sp_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', revoked]) {
      const res = await consent(authorizeUrl(clientId, pkce().challenge), apiKey);
      expect([res.status, res.headers.get('location')]).toEqual([200, null]);
      expect(await res.text()).toContain('<p role="alert"><strong>That is not an active API key of an organization: paste another.</strong></p>');
      expect(res.headers.get('set-cookie')).toMatch(/^oauth_csrf=/);
    }
  });

  it('with a read key and full chosen: the page again, and nothing written', async () => {
    const { organizationId } = await api.organization();
    const { token: readKey } = await createApiKey(organizationId, null, 'Reader', 'read');
    const clientId = await registeredClient(api);
    let res: Response | undefined;
    const calls = await countDynamoCalls(async () => void (res = await consent(authorizeUrl(clientId, pkce().challenge), readKey, { scope: 'full' })));
    expect([res!.status, res!.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    // Nothing written but the address's counts of consent pages and posts (the per-source limits).
    expect(calls.filter((command) => !/^(Get|Query)/.test(command))).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
  });
});

describe('scopes compared', () => {
  it('by their one order, which is the order of what each allows: a scope covers another when it allows every method the other does', () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const allowed = (scope: (typeof API_KEY_SCOPES)[number]) => methods.filter((method) => scopeAllows(scope, method));
    const compared = API_KEY_SCOPES.flatMap((a) => API_KEY_SCOPES.map((b) => [a, b, covers(a, b), mayGrant(a, b), narrowerScope(a, b)]));
    const bySets = API_KEY_SCOPES.flatMap((a) => API_KEY_SCOPES.map((b) => [a, b, ...[allowed(b).every((method) => allowed(a).includes(method))].flatMap((wider) => [wider, wider, wider ? b : a])]));
    expect(compared).toEqual(bySets);
    // The order written out: each covers itself and those before it alone.
    expect(compared.filter(([, , covered]) => covered).map(([a, b]) => `${a}>=${b}`)).toEqual(['read>=read', 'write>=read', 'write>=write', 'full>=read', 'full>=write', 'full>=full']);
  });
});

describe('the consent page', () => {
  it('shows what the client named itself as text, never as markup', async () => {
    const name = `<img src=x onerror=alert(1)> & "Bob's"`;
    const registered = await api.anonymous.post('/oauth/register', { client_name: name, redirect_uris: [LOOPBACK_REDIRECT] });
    expect(registered.status).toBe(201);
    const page = await consentPage(authorizeUrl(registered.body.client_id, pkce().challenge));
    const html = await page.text();
    expect([page.status, html]).toEqual([200, expect.stringContaining('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Bob&#39;s&quot;')]);
    expect(html).not.toContain('<img src=x');
  });
});

describe('the redirect after consent', () => {
  it('carries the state the client sent, and none when it sent none', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const withState = redirectedWith(await consent(authorizeUrl(clientId, pkce().challenge), apiKey));
    expect([withState.get('state'), withState.get('code')]).toEqual(['xyz', expect.any(String)]);
    const stateless = new URL(authorizeUrl(clientId, pkce().challenge));
    stateless.searchParams.delete('state');
    const without = redirectedWith(await consent(stateless, apiKey));
    expect([without.has('state'), without.get('code')]).toEqual([false, expect.any(String)]);
  });
});

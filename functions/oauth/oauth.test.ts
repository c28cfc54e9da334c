import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { createApiKey, revokeApiKey } from '#shared/auth/api-keys';
import { useTestApi } from '../../test/support/api';
import { requestWithHost } from '../../test/support/host-header';
import { clientDocumentHost, consent, LOOPBACK_REDIRECT, MemoryProvider, pkce, redirectedWith, registeredClient, consentPage, consentPageAnswer } from '../../test/support/oauth';
import { clientDocumentHosts } from './settings';

const api = useTestApi({ events: true, clock: 'manual' });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The authorization request a client would send the person's browser to. */
function authorizeUrl(clientId: string, challenge: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz', resource: `${api.url}/mcp`, scope: 'read', ...params });
  return `${api.url}/oauth/authorize?${query}`;
}

const token = (fields: Record<string, string>) => api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });

/** A client registered, consented to by the holder of `apiKey` with `scope`, and its code exchanged: its tokens. */
async function granted(apiKey: string, scope = 'read') {
  const clientId = await registeredClient(api);
  const { verifier, challenge } = pkce();
  const code = redirectedWith(await consent(authorizeUrl(clientId, challenge), apiKey, { scope })).get('code')!;
  const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId, resource: `${api.url}/mcp` });
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  return { clientId, code, verifier, tokens: exchanged.body as { access_token: string; refresh_token: string; scope: string } };
}

const mcpCall = (accessToken: string, method: string, params: Record<string, unknown> = {}) => api.as(accessToken).post('/mcp', { jsonrpc: '2.0', id: 1, method, params });

describe('discovery', () => {
  it('answers a call of /mcp without a token 401, naming the protected resource metadata and the scope in WWW-Authenticate', async () => {
    const res = await api.anonymous.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="sales-pipeline", resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="read"`);
  });

  it('serves the protected resource metadata at the MCP server’s path and at the root, naming /mcp as the resource and the API as its authorization server', async () => {
    const [own, root] = await Promise.all([api.anonymous.get('/.well-known/oauth-protected-resource/mcp'), api.anonymous.get('/.well-known/oauth-protected-resource')]);
    expect(own.body).toEqual({ resource: `${api.url}/mcp`, authorization_servers: [api.url], scopes_supported: ['read', 'write', 'full'], bearer_methods_supported: ['header'], resource_name: 'Sales Pipeline API (MCP)', resource_documentation: `${api.url}/docs` });
    expect(root.body).toEqual(own.body);
  });

  it('serves the authorization server metadata at RFC 8414’s path and OpenID’s: code with PKCE S256, public clients, registration, client ID metadata documents, iss', async () => {
    const [oauth, openid] = await Promise.all([api.anonymous.get('/.well-known/oauth-authorization-server'), api.anonymous.get('/.well-known/openid-configuration')]);
    expect(oauth.body).toEqual({
      issuer: api.url,
      authorization_endpoint: `${api.url}/oauth/authorize`,
      token_endpoint: `${api.url}/oauth/token`,
      registration_endpoint: `${api.url}/oauth/register`,
      scopes_supported: ['read', 'write', 'full'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${api.url}/docs`,
    });
    expect(openid.body).toEqual(oauth.body);
  });
});

describe('the MCP SDK client with its OAuth support, end to end', () => {
  /** Connects as a client would: the first connect is refused and opens the consent page; the person consents; the client finishes and connects again. */
  async function connectThroughConsent(provider: MemoryProvider, apiKey: string, scope = 'write') {
    const url = new URL(`${api.url}/mcp`);
    const first = new McpClient({ name: 'oauth-test', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toThrow(/Unauthorized/);
    expect(provider.authorizationUrl?.origin).toBe(new URL(api.url).origin);
    const posted = await consent(provider.authorizationUrl!, apiKey, { scope });
    expect(posted.status, await posted.clone().text()).toBe(303);
    const back = redirectedWith(posted);
    expect([back.get('state'), back.get('iss')]).toEqual(['state-1', api.url]);
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await transport.finishAuth(back.get('code')!);
    const client = new McpClient({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    return client;
  }

  it('by dynamic registration: discovers, registers, consents, lists and calls tools as the key’s organization, refreshes, and is refused once the grant is revoked', async () => {
    const { apiKey, client: owner } = await api.organization();
    const provider = new MemoryProvider();
    const client = await connectThroughConsent(provider, apiKey);
    expect(provider.information?.client_id).toMatch(/^client_/);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('lookup_caller');
    const made = await client.callTool({ name: 'create_faq', arguments: { question: 'Do you work weekends?', answer: 'Saturdays.' } });
    expect(made.isError).toBeFalsy();
    const faqId = (made.structuredContent as { faq: { id: number } }).faq.id;
    expect((await owner.get(`/v1/faqs/${faqId}`)).body.faq.question).toBe('Do you work weekends?');

    // A refresh rotates the refresh token; the new access token works.
    const before = provider.saved!;
    expect(await auth(provider, { serverUrl: new URL(`${api.url}/mcp`) })).toBe('AUTHORIZED');
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    expect((await mcpCall(provider.saved!.access_token, 'tools/list')).status).toBe(200);

    const { grants } = (await owner.get('/v1/oauth/grants')).body;
    expect(grants).toEqual([expect.objectContaining({ clientId: provider.information!.client_id, clientName: 'Test assistant', scope: 'write' })]);
    expect((await owner.delete(`/v1/oauth/grants/${grants[0].id}`)).status).toBe(200);
    await expect(client.callTool({ name: 'lookup_caller', arguments: { phone: '+61412345678' } })).rejects.toThrow(/Unauthorized/);
    expect((await mcpCall(provider.saved?.access_token ?? before.access_token, 'tools/list')).status).toBe(401);
    await client.close();
  });

  it('by a client ID metadata document on a local https host: connects, and is refused once the granting key is revoked', async () => {
    const host = await clientDocumentHost((origin) => ({ '/client.json': { client_id: `${origin}/client.json`, client_name: 'Document client', redirect_uris: ['vscode://example.client/callback', LOOPBACK_REDIRECT] }, '/moved.json': { location: `${origin}/client.json` } }));
    clientDocumentHosts.allowed.add(host.hostPort);
    clientDocumentHosts.ca = host.ca;
    const { organizationId } = await api.organization();
    const { key, token: apiKey } = await createApiKey(organizationId, null, 'Claude', 'full');
    const provider = new MemoryProvider(`${host.origin}/client.json`);
    const client = await connectThroughConsent(provider, apiKey, 'read');
    expect(provider.information?.client_id).toBe(`${host.origin}/client.json`);
    // A read grant offers the read tools only.
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('lookup_caller');
    expect(names).not.toContain('log_call');
    // The document's redirect URIs must hold the request's; a document's host that redirects is not followed.
    const refusedWith = async (clientId: string, redirectUri: string) => {
      const res = await consentPageAnswer(`${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`);
      return [res.status, res.body.error.details[0].path, res.body.message];
    };
    expect(await refusedWith(`${host.origin}/client.json`, 'https://attacker.example/callback')).toEqual([400, 'redirect_uri', expect.any(String)]);
    expect(await refusedWith(`${host.origin}/moved.json`, LOOPBACK_REDIRECT)).toEqual([400, 'client_id', expect.stringContaining('answered 302 (a redirect, which is not followed)')]);
    await revokeApiKey(organizationId, key.keyId);
    expect((await mcpCall(provider.saved!.access_token, 'tools/list')).status).toBe(401);
    await client.close();
  });
});

describe('the consent page', () => {
  it('shows the client and its redirect host, asks for a key with read chosen, runs no script, refuses framing, and sets its CSRF token in a strict cookie', async () => {
    const clientId = await registeredClient(api);
    const res = await consentPage(authorizeUrl(clientId, pkce().challenge));
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(`default-src 'none'; style-src 'nonce-${/nonce="([^"]+)"/.exec(html)![1]}'; form-action 'self' http://127.0.0.1:33418; frame-ancestors 'none'; base-uri 'none'`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('set-cookie')).toMatch(/^oauth_csrf=[A-Za-z0-9_-]{32}; Path=\/oauth\/authorize; HttpOnly; SameSite=Strict; Max-Age=900$/);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<strong>Test assistant</strong> asks');
    expect(html).toContain('<strong>127.0.0.1:33418</strong>');
    expect(html).toContain('<input type="password" name="api_key"');
    expect([...html.matchAll(/name="granted_scope" value="(\w+)"( checked)?/g)].map(([, scope, checked]) => `${scope}${checked ?? ''}`)).toEqual(['read checked', 'write', 'full']);
  });

  it('sends a denial back to the client as access_denied, with state and iss', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const back = redirectedWith(await consent(authorizeUrl(clientId, pkce().challenge), apiKey, { decision: 'deny' }));
    expect(Object.fromEntries(back)).toMatchObject({ error: 'access_denied', state: 'xyz', iss: api.url });
    expect(back.get('code')).toBeNull();
  });
});

describe('refused', () => {
  it('a code exchanged with a wrong PKCE verifier: invalid_grant', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const { challenge } = pkce();
    const code = redirectedWith(await consent(authorizeUrl(clientId, challenge), apiKey)).get('code')!;
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: pkce().verifier, client_id: clientId });
    expect([res.status, res.body]).toEqual([400, { error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge (PKCE S256)' }]);
  });

  it('a code used twice: invalid_grant, and the grant it made is revoked with its tokens', async () => {
    const { apiKey } = await api.organization();
    const { clientId, code, verifier, tokens } = await granted(apiKey);
    const again = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
    expect((await mcpCall(tokens.access_token, 'tools/list')).status).toBe(401);
  });

  it('a redirect URI the client did not register: 400 naming redirect_uri, never a redirect; a loopback one on another port is the client’s (RFC 8252)', async () => {
    const clientId = await registeredClient(api);
    const foreign = await consentPageAnswer(authorizeUrl(clientId, pkce().challenge, { redirect_uri: 'https://attacker.example/callback' }));
    expect([foreign.status, foreign.body.error.details[0].path]).toEqual([400, 'redirect_uri']);
    expect(foreign.headers.location).toBeUndefined();
    const otherPort = await consentPage(authorizeUrl(clientId, pkce().challenge, { redirect_uri: 'http://127.0.0.1:50999/callback' }));
    expect(otherPort.status).toBe(200);
  });

  it('a resource naming another server: 400 naming resource (never a redirect), and invalid_target at the token endpoint', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const res = await consentPage(authorizeUrl(clientId, pkce().challenge, { resource: 'https://other.example/mcp' }));
    expect([res.status, res.headers.get('location')]).toEqual([400, null]);
    expect(((await res.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe('resource');
    const { verifier, challenge } = pkce();
    const code = redirectedWith(await consent(authorizeUrl(clientId, challenge), apiKey)).get('code')!;
    const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId, resource: 'https://other.example/mcp' });
    expect([exchanged.status, exchanged.body.error]).toEqual([400, 'invalid_target']);
  });

  it('an access token once expired, an hour after it was issued', async () => {
    const { apiKey } = await api.organization();
    const { tokens } = await granted(apiKey);
    await api.advanceTime('PT59M');
    expect((await mcpCall(tokens.access_token, 'tools/list')).status).toBe(200);
    await api.advanceTime('PT2M');
    expect((await mcpCall(tokens.access_token, 'tools/list')).status).toBe(401);
  });

  it('an access token presented to another server (another Host) or on a REST route: its audience is this /mcp alone', async () => {
    const { apiKey } = await api.organization();
    const { tokens } = await granted(apiKey);
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const foreign = await requestWithHost(`${api.url}/mcp`, 'mcp.other.example', { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` }, body: message });
    expect(foreign.status).toBe(401);
    expect((await api.as(tokens.access_token).get('/v1/leads')).status).toBe(401);
    expect((await mcpCall(tokens.access_token, 'tools/list')).status).toBe(200);
  });

  it('a refresh token used twice: invalid_grant, and the whole grant is revoked, the tokens of the refresh that rotated it too', async () => {
    const { apiKey } = await api.organization();
    const { clientId, tokens } = await granted(apiKey);
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant']);
    expect((await mcpCall(rotated.body.access_token, 'tools/list')).status).toBe(401);
    const next = await token({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token, client_id: clientId });
    expect([next.status, next.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('a consent post without the page’s CSRF token, or with another page’s: 400 naming csrf_token, no code', async () => {
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const url = authorizeUrl(clientId, pkce().challenge);
    const page = await consentPage(url);
    const fields = Object.fromEntries([...(await page.text()).matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, value!]));
    const post = (body: Record<string, string>, cookie?: string) =>
      api.anonymous.request('POST', '/oauth/authorize', { rawBody: new URLSearchParams({ ...body, api_key: apiKey, granted_scope: 'read', decision: 'allow' }).toString(), headers: { ...FORM, ...(cookie ? { cookie } : {}) } });
    const { csrf_token: _, ...withoutToken } = fields;
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
    for (const refused of [await post(withoutToken, cookie), await post(fields), await post(fields, 'oauth_csrf=another-pages-token')]) {
      expect([refused.status, refused.body.error.details[0].path]).toEqual([400, 'csrf_token']);
    }
    const accepted = await fetch(`${api.url}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { ...FORM, cookie }, body: new URLSearchParams({ ...fields, api_key: apiKey, granted_scope: 'read', decision: 'allow' }) });
    expect(accepted.status).toBe(303);
  });

  it('a client ID metadata document on a private, loopback or link-local address: 400 naming client_id, nothing fetched', async () => {
    for (const document of ['https://127.0.0.1:8443/client.json', 'https://10.0.0.8/client.json', 'https://169.254.169.254/latest/client.json', 'https://localhost:8443/client.json']) {
      const res = await consentPageAnswer(`${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: document, redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`);
      expect([res.status, res.body.error.details[0].path], document).toEqual([400, 'client_id']);
      expect(res.body.message).toContain('private, loopback or link-local');
    }
  });

  it('the test setting that lets a local host serve client documents, in a function running in Lambda: it does not start', () => {
    const load = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "await import('./functions/oauth/settings.ts')"], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' });
    const inLambda = load({ OAUTH_TEST_CLIENT_HOSTS: 'localhost:8443', AWS_LAMBDA_FUNCTION_NAME: 'OauthAuthorize' });
    expect(inLambda.status).not.toBe(0);
    expect(inLambda.stderr).toContain('OAUTH_TEST_CLIENT_HOSTS is for npm start and the tests');
    // The same setting under npm start, and Lambda without it, start.
    expect(load({ OAUTH_TEST_CLIENT_HOSTS: 'localhost:8443' }).status).toBe(0);
    expect(load({ AWS_LAMBDA_FUNCTION_NAME: 'OauthAuthorize' }).status).toBe(0);
  });


  it('a client the token endpoint does not know: invalid_client (401), so that it registers again; an unused registration is forgotten after 7 days', async () => {
    const unknown = await token({ grant_type: 'refresh_token', refresh_token: 'sp_ort_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', client_id: 'client_01JD3F4G5H6J7K8M9N0P1Q2R3S' });
    expect([unknown.status, unknown.body.error]).toEqual([401, 'invalid_client']);
    const { apiKey } = await api.organization();
    const clientId = await registeredClient(api);
    const { verifier, challenge } = pkce();
    const code = redirectedWith(await consent(authorizeUrl(clientId, challenge), apiKey)).get('code')!;
    const unused = await registeredClient(api);
    await api.advanceTime('P8D');
    const forgotten = await consentPageAnswer(authorizeUrl(unused, challenge));
    expect([forgotten.status, forgotten.body.error.details[0].path]).toEqual([400, 'client_id']);
    // The consented client too was never granted anything (its code was not exchanged): forgotten, told to register again.
    const late = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
    expect([late.status, late.body.error]).toEqual([401, 'invalid_client']);
  });

  it('client registrations this server does not take: OAuth’s errors naming the field', async () => {
    const http = await api.anonymous.post('/oauth/register', { client_name: 'Web', redirect_uris: ['http://app.example/callback'] });
    expect([http.status, http.body.error]).toEqual([400, 'invalid_redirect_uri']);
    expect(http.body.error_description).toContain('redirect_uris');
    const none = await api.anonymous.post('/oauth/register', { client_name: 'Nothing' });
    expect([none.status, none.body.error]).toEqual([400, 'invalid_client_metadata']);
    expect(none.body.error_description).toMatch(/^redirect_uris/);
    const secret = await api.anonymous.post('/oauth/register', { redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: 'client_secret_basic' });
    expect([secret.status, secret.body.error, secret.body.error_description]).toEqual([400, 'invalid_client_metadata', 'token_endpoint_auth_method must be "none": clients here are public, with PKCE']);
  });
});

describe('grants', () => {
  it('are listed with their client, scope and key, revoked by id (an event each way), and end with their key', async () => {
    const { apiKey, client: owner, keyId, organizationId } = await api.organization();
    const { clientId, tokens } = await granted(apiKey, 'full');
    const [grant] = (await owner.get('/v1/oauth/grants')).body.grants;
    expect(grant).toEqual({ id: expect.stringMatching(/^grant_/), clientId, clientName: 'Test assistant', scope: 'full', keyId, createdAt: expect.any(String), lastUsedAt: null });
    expect((await mcpCall(tokens.access_token, 'tools/list')).status).toBe(200);
    expect((await owner.get('/v1/oauth/grants')).body.grants[0].lastUsedAt).toEqual(expect.any(String));
    expect((await owner.delete(`/v1/oauth/grants/${grant.id}`)).body).toEqual({ success: true, id: grant.id });
    expect((await owner.delete(`/v1/oauth/grants/${grant.id}`)).status).toBe(404);
    await api.eventsCaughtUp();
    const events = (await owner.get('/v1/events?limit=10')).body.events.filter((event: { type: string }) => event.type.startsWith('oauth_grant.'));
    expect(events.map((event: { type: string; data: { id: string } }) => [event.type, event.data.id])).toEqual([
      ['oauth_grant.revoked', grant.id],
      ['oauth_grant.created', grant.id],
    ]);
    // Made at the token endpoint as the granting key for the client; revoked by the organization's key.
    const audited = (await owner.get(`/v1/audit-log?resourceType=oauth_grant&resourceId=${grant.id}`)).body.entries;
    expect(audited.map((entry: Record<string, unknown>) => [entry.action, entry.via, entry.keyId, entry.clientId, entry.path])).toEqual([
      ['deleted', 'api', keyId, null, `/v1/oauth/grants/${grant.id}`],
      ['created', 'mcp', keyId, clientId, '/oauth/token'],
    ]);

    const other = await granted(apiKey);
    expect((await owner.get('/v1/oauth/grants')).body.grants).toHaveLength(1);
    await revokeApiKey(organizationId, keyId);
    expect((await mcpCall(other.tokens.access_token, 'tools/list')).status).toBe(401);
  });

  it('write as the granting key, the audit log naming the MCP server and the OAuth client', async () => {
    const { apiKey, client: owner, keyId } = await api.organization();
    const { clientId, tokens } = await granted(apiKey, 'write');
    const made = await mcpCall(tokens.access_token, 'tools/call', { name: 'create_faq', arguments: { question: 'Parking?', answer: 'On the street.' } });
    const faqId = JSON.parse(made.body.result.content[0].text).faq.id;
    await api.eventsCaughtUp();
    const entries = (await owner.get(`/v1/audit-log?resourceType=faq&resourceId=${faqId}`)).body.entries;
    expect(entries).toEqual([expect.objectContaining({ action: 'created', via: 'mcp', keyId, clientId })]);
    // A read of another organization's record through a tool is not found, as with the key.
    const stranger = await api.organization();
    const lead = (await stranger.client.post('/v1/leads', { name: 'Not yours', phone: '+61412000111' })).body.lead;
    const read = await mcpCall(tokens.access_token, 'tools/call', { name: 'get_lead', arguments: { leadId: lead.id } });
    expect(read.body.result.isError).toBe(true);
    expect(JSON.parse(read.body.result.content[0].text).error.code).toBe('NOT_FOUND');
  });
});

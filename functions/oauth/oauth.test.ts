import { describe, expect, it } from 'vitest';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { createApiKey, revokeApiKey } from '#shared/auth/api-keys';
import { useTestApi } from '../../test/support/api';
import { requestWithHost } from '../../test/support/host-header';
import { clientDocumentHost, consent, LOOPBACK_REDIRECT, MemoryProvider, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';
import { clientDocumentHosts } from './settings';
import { forgetClientDocuments } from './clients';

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
    expect(oauth.body).toMatchObject({
      issuer: api.url,
      authorization_endpoint: `${api.url}/oauth/authorize`,
      token_endpoint: `${api.url}/oauth/token`,
      registration_endpoint: `${api.url}/oauth/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
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
    const host = await clientDocumentHost((origin) => ({ '/client.json': { client_id: `${origin}/client.json`, client_name: 'Document client', redirect_uris: [LOOPBACK_REDIRECT] } }));
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
    await revokeApiKey(organizationId, key.keyId);
    expect((await mcpCall(provider.saved!.access_token, 'tools/list')).status).toBe(401);
    await client.close();
  });
});

import { describe, expect, it } from 'vitest';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { consent, LOOPBACK_REDIRECT, MemoryProvider, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';

/**
 * An OAuth client's view of `/mcp` once its grant is revoked, with the gateway's authorizer cache in play as deployed:
 * the revocation flushes the cached answers, so the very next message is refused by the gateway itself.
 */
const api = useTestApi({ authorizerCacheTtlMs: 300_000 });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A grant of `scope` by the holder of `apiKey`: its id and its tokens. */
async function granted(apiKey: string, scope = 'write') {
  const clientId = await registeredClient(api);
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope });
  const code = redirectedWith(await consent(`${api.url}/oauth/authorize?${query}`, apiKey, { scope })).get('code')!;
  const exchanged = await api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId }).toString(), headers: FORM });
  expect(exchanged.status).toBe(200);
  return exchanged.body as { access_token: string; refresh_token: string };
}

const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method, params });
const CHALLENGE = () => `Bearer realm="sales-pipeline", resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="read"`;

describe('a grant revoked while the gateway held its access token’s answer', () => {
  it('answers the very next message 401 with the gateway’s challenge, even one that calls nothing', async () => {
    const { client: owner } = await api.organization();
    const { apiKey } = await api.organization();
    const tokens = await granted(apiKey);
    const mcp = api.as(tokens.access_token);
    expect((await mcp.post('/mcp', rpc('tools/list'))).status).toBe(200);
    // Cached now: a second message is answered without asking the authorizer again.
    expect((await mcp.post('/mcp', rpc('tools/list'))).status).toBe(200);
    const { grants } = (await api.as(apiKey).get('/v1/oauth/grants')).body;
    expect((await api.as(apiKey).delete(`/v1/oauth/grants/${grants[0].id}`)).status).toBe(200);
    // The revocation flushed the cached answer: a message that calls nothing is refused too.
    const listed = await mcp.post('/mcp', rpc('tools/list'));
    expect([listed.status, listed.headers.get('www-authenticate')]).toEqual([401, CHALLENGE()]);
    const called = await mcp.post('/mcp', rpc('tools/call', { name: 'lookup_caller', arguments: { phone: '+61412345678' } }));
    expect([called.status, called.headers.get('www-authenticate'), called.body]).toEqual([401, CHALLENGE(), { success: false, message: 'Invalid or expired token', error: { status: 401, message: 'Invalid or expired token' } }]);
    const read = await mcp.post('/mcp', rpc('resources/read', { uri: 'receptionist://context' }));
    expect(read.status).toBe(401);
    // Another organization's key is untouched.
    expect((await owner.get('/v1/leads')).status).toBe(200);
  });

  it('sends the MCP SDK’s client back to the consent page: its refresh refused, it asks the person again', async () => {
    const { apiKey } = await api.organization();
    const provider = new MemoryProvider();
    const url = new URL(`${api.url}/mcp`);
    await expect(new McpClient({ name: 'revoked-test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toThrow(/Unauthorized/);
    const back = redirectedWith(await consent(provider.authorizationUrl!, apiKey, { scope: 'read' }));
    await new StreamableHTTPClientTransport(url, { authProvider: provider }).finishAuth(back.get('code')!);
    const client = new McpClient({ name: 'revoked-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const { grants } = (await api.as(apiKey).get('/v1/oauth/grants')).body;
    await api.as(apiKey).delete(`/v1/oauth/grants/${grants[0].id}`);
    const asked = () => provider.authorizationUrl;
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: 'lookup_caller', arguments: { phone: '+61412345678' } })).rejects.toThrow(/Unauthorized/);
    expect(asked()?.pathname).toBe('/oauth/authorize');
    await client.close();
  });
});

describe('an access token on a REST route', () => {
  it('answers 401 whether or not the gateway holds its answer from /mcp, running nothing', async () => {
    const { apiKey } = await api.organization();
    const tokens = await granted(apiKey, 'full');
    const rest = api.as(tokens.access_token);
    expect((await rest.get('/v1/leads')).status).toBe(401);
    expect((await rest.post('/mcp', rpc('tools/list'))).status).toBe(200);
    for (const [method, path, body] of [['GET', '/v1/leads'], ['POST', '/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' }], ['DELETE', '/v1/oauth/grants/grant_01JD3F4G5H6J7K8M9N0P1Q2R3S'], ['GET', '/v1/oauth/grants']] as const) {
      let status = 0;
      let challenge: string | null = null;
      const calls = await countDynamoCalls(async () => {
        const res = await rest.request(method, path, body ? { body } : {});
        [status, challenge] = [res.status, res.headers.get('www-authenticate')];
      });
      expect([status, challenge, calls], `${method} ${path}`).toEqual([401, 'Bearer realm="sales-pipeline"', []]);
    }
    expect((await api.as(apiKey).get('/v1/leads')).body.totalCount).toBe(0);
  });
});

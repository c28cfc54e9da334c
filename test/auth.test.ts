import { describe, expect, it } from 'vitest';
import { handler as authorizer } from '../functions/authorizer';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/auth/api-keys';
import { useTestApi } from './support/api';

const api = useTestApi();
const UNAUTHORIZED = {
  success: false,
  message: 'Invalid or expired token',
  error: { status: 401, message: 'Invalid or expired token' },
};

describe('Authorization: Bearer <api key>', () => {
  it.each([
    ['no Authorization header', {}],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed token', { authorization: 'Bearer not a token' }],
    ['an unknown token', { authorization: 'Bearer sp_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
  ])('answers 401 with the envelope for %s', async (_, headers) => {
    const res = await api.anonymous.get('/v1/leads', { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    // HTTP's 401 names the scheme to authenticate with, and where the MCP server's OAuth metadata is (RFC 9728).
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="sales-pipeline", resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="read"`);
  });

  it('accepts the scheme name in any case, as HTTP auth schemes are case-insensitive', async () => {
    const { apiKey } = await api.organization();
    for (const scheme of ['bearer', 'BEARER']) {
      expect((await api.anonymous.get('/v1/leads', { headers: { authorization: `${scheme} ${apiKey}` } })).status).toBe(200);
    }
  });

  it('answers 401 for a key with only its last character changed, while the key itself works', async () => {
    const { apiKey } = await api.organization();
    const last = apiKey.at(-1)!;
    const altered = apiKey.slice(0, -1) + (last === 'A' ? 'B' : 'A');
    expect(altered).toHaveLength(apiKey.length);
    expect((await api.as(apiKey).get('/v1/leads')).status).toBe(200);
    const res = await api.as(altered).get('/v1/leads');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 for an expired key', async () => {
    const { organizationId } = await api.organization();
    const { token } = await createApiKey(organizationId, new Date(Date.now() - 1000));
    const res = await api.as(token).get('/v1/leads');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('accepts a key until it expires', async () => {
    const { organizationId } = await api.organization();
    const { token } = await createApiKey(organizationId, new Date(Date.now() + 60_000));
    expect((await api.as(token).get('/v1/leads')).status).toBe(200);
  });

  it('answers 401 for a revoked key, and other keys of the organization keep working', async () => {
    const { organizationId, client } = await api.organization();
    const { key, token } = await createApiKey(organizationId);
    expect((await api.as(token).get('/v1/leads')).status).toBe(200);
    await revokeApiKey(organizationId, key.keyId);
    expect((await api.as(token).get('/v1/leads')).status).toBe(401);
    expect((await client.get('/v1/leads')).status).toBe(200);
  });

  it('lists keys without their hashes or secrets', async () => {
    const { organizationId, apiKey } = await api.organization();
    const listed = await listApiKeys(organizationId);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toEqual({ keyId: expect.stringMatching(/^key_/), organizationId, name: null, memberId: null, scope: 'full', createdAt: expect.any(String), lastUsedAt: null, expiresAt: null, revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(apiKey);
  });

  it('scopes a key to its own organization: two keys of two organizations see different leads', async () => {
    const a = await api.organization();
    const b = await api.organization();
    await a.client.post('/v1/leads', { name: 'Only A', email: 'a@example.com' });
    expect((await a.client.get('/v1/leads')).body.totalCount).toBe(1);
    expect((await b.client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

describe('the authorizer', () => {
  it('allows a full key the whole API, so a cached answer serves every method and path (test/scopes.test.ts: narrower keys)', async () => {
    const { organizationId, apiKey } = await api.organization();
    const result = await authorizer({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:ap-southeast-2:123456789012:abc123/prod/GET/v1/leads',
      headers: { Authorization: `Bearer ${apiKey}` },
    } as never);
    expect(result.context).toEqual({ organizationId, keyId: expect.stringMatching(/^key_/), keyName: '', scope: 'full', memberId: '', memberRole: '', endsAt: '', counterShards: 1 });
    expect(result.policyDocument.Statement).toEqual([
      { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: ['arn:aws:execute-api:ap-southeast-2:123456789012:abc123/prod/*/*'] },
    ]);
  });

  it('rejects an unknown token with Unauthorized', async () => {
    await expect(
      authorizer({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:r:1:a/prod/GET/v1/leads', headers: { authorization: 'Bearer sp_live_unknownunknownunknown' } } as never),
    ).rejects.toThrow('Unauthorized');
  });
});

describe('unknown routes', () => {
  it('answers 404 with the envelope, with or without a key', async () => {
    const { client } = await api.organization();
    for (const res of [await client.get('/v1/nothing-here'), await api.anonymous.get('/v2/leads'), await client.request('PATCH', '/v1/leads/lead_1/nothing')]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Not found', error: { status: 404, message: 'Not found', code: 'NOT_FOUND' } });
    }
    // A known path asked with a method it does not take is not a missing route (test/verbs.test.ts).
    expect((await client.request('PATCH', '/v1/leads')).status).toBe(405);
  });
});

describe('key bookkeeping', () => {
  it('records when a key was last used, to the minute, without a write on every request', async () => {
    const { organizationId, apiKey, client } = await api.organization();
    expect((await listApiKeys(organizationId))[0]!.lastUsedAt).toBeNull();
    await client.get('/v1/leads');
    const first = (await listApiKeys(organizationId))[0]!.lastUsedAt;
    expect(first).toEqual(expect.any(String));
    await api.as(apiKey).get('/v1/leads');
    expect((await listApiKeys(organizationId))[0]!.lastUsedAt).toBe(first);
  });

  it('keeps a name given to a key', async () => {
    const { organizationId } = await api.organization();
    const { key } = await createApiKey(organizationId, null, 'Zapier');
    expect((await listApiKeys(organizationId)).find((listed) => listed.keyId === key.keyId)?.name).toBe('Zapier');
  });

  it('logs no key: the suite scans every line it writes (test/support/table-per-file.ts)', async () => {
    const { organizationId } = await api.organization();
    const { token } = await createApiKey(organizationId);
    expect(token).toMatch(/^sp_live_[A-Za-z0-9_-]{20,}$/);
    expect((await api.as(token).post('/v1/leads', { name: 'x' })).status).toBe(400);
  });
});

describe('Authorization header', () => {
  it('accepts more than one space after Bearer (RFC 6750: "Bearer" 1*SP b64token)', async () => {
    const { apiKey } = await api.organization();
    const res = await api.anonymous.get('/v1/leads', { headers: { authorization: `Bearer  ${apiKey}` } });
    expect(res.status).toBe(200);
  });
});

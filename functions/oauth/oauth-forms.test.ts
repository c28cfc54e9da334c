import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';

/**
 * What OAuth's endpoints answer about the requests themselves: a registration's answer word for word, a body that is
 * not JSON, a form parameter given twice (RFC 6749 §3.1), each required parameter missing, a grant type this server
 * does not issue, a denial's description and a scope the API does not have.
 */
const api = useTestApi();

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const token = (body: string) => api.anonymous.request('POST', '/oauth/token', { rawBody: body, headers: FORM });
const authorizeUrl = (clientId: string) =>
  `${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 'xyz', resource: `${api.url}/mcp`, scope: 'read' })}`;

describe('a registration', () => {
  it('answers the client as RFC 7591 shows it: issued now, in seconds; public; the code flow and refresh alone', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await api.anonymous.request('POST', '/oauth/register', { rawBody: JSON.stringify({ client_name: 'Forms assistant', redirect_uris: [LOOPBACK_REDIRECT] }), headers: { 'content-type': 'application/json' } });
    const after = Math.ceil(Date.now() / 1000);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      client_id: expect.stringMatching(/^client_[0-9A-Z]{26}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Forms assistant',
      redirect_uris: [LOOPBACK_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(res.body.client_id_issued_at).toBeGreaterThanOrEqual(before);
    expect(res.body.client_id_issued_at).toBeLessThanOrEqual(after);
  });

  it('refuses a body that is not JSON, or none, as invalid_client_metadata', async () => {
    for (const rawBody of ['client_name=x', '{"client_name":', '']) {
      const res = await api.anonymous.request('POST', '/oauth/register', { rawBody, headers: { 'content-type': 'application/json' } });
      expect([res.status, res.body], rawBody).toEqual([400, { error: 'invalid_client_metadata', error_description: 'the body must be JSON client metadata' }]);
    }
  });
});

describe('a token request', () => {
  it('refuses a parameter given twice, naming it, whatever else the form says', async () => {
    for (const [body, name] of [['grant_type=refresh_token&grant_type=authorization_code&client_id=client_01JD3F4G5H6J7K8M9N0P1Q2R3S', 'grant_type'], ['grant_type=refresh_token&client_id=a&client_id=a', 'client_id']] as const) {
      const res = await token(body);
      expect([res.status, res.body], body).toEqual([400, { error: 'invalid_request', error_description: `${name} must be given once` }]);
    }
  });

  it('names each required parameter missing, and refuses a grant type it does not issue', async () => {
    expect((await token('client_id=client_01JD3F4G5H6J7K8M9N0P1Q2R3S')).body).toEqual({ error: 'invalid_request', error_description: 'grant_type is required' });
    expect((await token('grant_type=refresh_token')).body).toEqual({ error: 'invalid_request', error_description: 'client_id is required' });
    for (const grantType of ['password', 'client_credentials', 'refresh_tokens', 'authorization_cod']) {
      const res = await token(`grant_type=${grantType}&client_id=client_01JD3F4G5H6J7K8M9N0P1Q2R3S`);
      expect([res.status, res.body], grantType).toEqual([400, { error: 'unsupported_grant_type', error_description: 'grant_type must be authorization_code or refresh_token' }]);
    }
  });
});

describe('the consent post', () => {
  it('refuses a field given twice, naming it, before anything else is read', async () => {
    const res = await api.anonymous.request('POST', '/oauth/authorize', { rawBody: 'decision=allow&decision=deny&csrf_token=x', headers: FORM });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('decision must be given once');
  });

  it('sends a denial back with its description', async () => {
    const { apiKey } = await api.organization();
    const back = redirectedWith(await consent(authorizeUrl(await registeredClient(api)), apiKey, { decision: 'deny' }));
    expect([back.get('error'), back.get('error_description')]).toEqual(['access_denied', 'The person did not allow access']);
  });

  it('refuses a scope the API does not have, naming granted_scope', async () => {
    const { apiKey } = await api.organization();
    const res = await consent(authorizeUrl(await registeredClient(api)), apiKey, { scope: 'admin' });
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).toContain('granted_scope');
    expect(body).toContain('granted_scope must be one of read, write, full');
  });
});

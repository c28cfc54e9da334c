import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '#shared/dynamo';
import { MAX_BODY_BYTES } from '#shared/http/middleware';
import { createApiKey, revokeApiKey } from '#shared/auth/api-keys';
import { useTestApi, type ApiResponse } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient, consentPage } from '../../test/support/oauth';

/**
 * What OAuth's endpoints refuse, off the path a well-behaved client takes: each parameter missing, near misses (one
 * character more or less), two requests at once, and the clock moved past each lifetime and just short of it.
 */
const api = useTestApi({ clock: 'manual' });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const authorizeQuery = (clientId: string, challenge: string, params: Record<string, string> = {}) =>
  new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz', resource: `${api.url}/mcp`, scope: 'read', ...params });
const authorizeUrl = (clientId: string, challenge: string, params: Record<string, string> = {}) => `${api.url}/oauth/authorize?${authorizeQuery(clientId, challenge, params)}`;

const token = (fields: Record<string, string>) => api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });

/** What `send` answered, and the DynamoDB calls the route made for it. */
async function withCalls(send: () => Promise<ApiResponse>): Promise<[ApiResponse, string[]]> {
  let answer: ApiResponse | undefined;
  const calls = await countDynamoCalls(async () => void (answer = await send()));
  return [answer!, calls];
}

/** A form of exactly `bytes` bytes: the fields, then a padding field the endpoint does not read. */
function formOf(bytes: number, fields: Record<string, string>): string {
  const head = `${new URLSearchParams(fields)}&padding=`;
  return head + 'a'.repeat(bytes - head.length);
}

describe('form bodies over 256 KB', () => {
  const PATHS = ['/oauth/token', '/oauth/authorize'];

  it('answer 413 before the form is read: nothing is looked up', async () => {
    for (const path of PATHS) {
      const [res, calls] = await withCalls(() => api.anonymous.request('POST', path, { rawBody: formOf(MAX_BODY_BYTES + 1, { grant_type: 'refresh_token', client_id: 'client_01JD3F4G5H6J7K8M9N0P1Q2R3S', refresh_token: 'sp_ort_x' }), headers: FORM }));
      expect([res.status, res.body.error.code], path).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      expect(calls, path).toEqual([]);
    }
  });

  it('read a form of exactly 256 KB as any other', async () => {
    const [res, calls] = await withCalls(() => api.anonymous.request('POST', '/oauth/token', { rawBody: formOf(MAX_BODY_BYTES, { grant_type: 'refresh_token', client_id: 'client_01JD3F4G5H6J7K8M9N0P1Q2R3S', refresh_token: 'sp_ort_x' }), headers: FORM }));
    expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    // Read and counted as any token request: the address's and the client's per-source counts, then the client looked up.
    expect(calls).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'GetItemCommand']);
  });

  it('answer 413 for a body sent in chunks, with no Content-Length', async () => {
    for (const path of PATHS) {
      const bytes = new TextEncoder().encode(formOf(MAX_BODY_BYTES + 1, { grant_type: 'authorization_code' }));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
          controller.close();
        },
      });
      const calls = await countDynamoCalls(async () => {
        const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: FORM, body, duplex: 'half' } as RequestInit);
        expect(res.status, path).toBe(413);
      });
      expect(calls, path).toEqual([]);
    }
  });
});

/** A PKCE pair with the verifier given. */
const pkceOf = (verifier: string) => ({ verifier, challenge: createHash('sha256').update(verifier).digest('base64url') });

/** A client registered and consented to with `apiKey`: its unexchanged code and the verifier that goes with it. */
async function issuedCode(apiKey: string, verifier = pkce().verifier) {
  const clientId = await registeredClient(api);
  const { challenge } = pkceOf(verifier);
  const code = redirectedWith(await consent(authorizeUrl(clientId, challenge), apiKey)).get('code')!;
  const exchange = { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId };
  return { clientId, code, verifier, exchange };
}

/** Each field of a token request left out in turn: invalid_request naming it. */
async function expectEachRequired(fields: Record<string, string>) {
  for (const name of Object.keys(fields)) {
    const { [name]: _, ...without } = fields;
    const res = await token(without);
    expect([res.status, res.body.error, res.body.error_description], name).toEqual([400, 'invalid_request', expect.stringMatching(new RegExp(`^${name} is required`))]);
  }
}

/** Each near miss of a good token request refused as invalid_grant, spending nothing: the request itself then answers tokens. */
async function expectNearMissesRefused(fields: Record<string, string>, nearMisses: Record<string, string>[]) {
  for (const refused of nearMisses) {
    const res = await token({ ...fields, ...refused });
    expect([res.status, res.body.error], JSON.stringify(refused)).toEqual([400, 'invalid_grant']);
  }
  expect((await token(fields)).status).toBe(200);
}

const mcpCall = (accessToken: string) => api.as(accessToken).post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('a code exchanged at the token endpoint', () => {
  it('without one of its parameters: invalid_request naming it, and the code is still good', async () => {
    const { apiKey } = await api.organization();
    const { exchange } = await issuedCode(apiKey);
    await expectEachRequired(exchange);
    expect((await token(exchange)).status).toBe(200);
  });

  it('with a redirect URI one character off, a prefix of it, or another client’s code: invalid_grant, and the code is still good', async () => {
    const { apiKey } = await api.organization();
    const { exchange } = await issuedCode(apiKey);
    const otherClient = await registeredClient(api);
    await expectNearMissesRefused(exchange, [{ redirect_uri: `${LOOPBACK_REDIRECT}/` }, { redirect_uri: LOOPBACK_REDIRECT.slice(0, -1) }, { redirect_uri: 'http://127.0.0.1:33419/callback' }, { client_id: otherClient }]);
  });

  it('with a code verifier not of RFC 7636’s form (42 or 129 characters, a character outside its set): invalid_request; of its form but not the code’s: invalid_grant', async () => {
    const { apiKey } = await api.organization();
    const { exchange, verifier } = await issuedCode(apiKey);
    for (const malformed of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}=`, `${verifier.slice(0, -1)} `]) {
      const res = await token({ ...exchange, code_verifier: malformed });
      expect([res.status, res.body], malformed).toEqual([400, { error: 'invalid_request', error_description: 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636)' }]);
    }
    for (const wrong of ['a'.repeat(43), 'a'.repeat(128), `${verifier.slice(0, -1)}${verifier.endsWith('A') ? 'B' : 'A'}`, `${verifier}a`]) {
      const res = await token({ ...exchange, code_verifier: wrong });
      expect([res.status, res.body], wrong).toEqual([400, { error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge (PKCE S256)' }]);
    }
    expect((await token(exchange)).status).toBe(200);
  });

  it('with a verifier of 43 and of 128 characters, every character of the set used: tokens', async () => {
    const { apiKey } = await api.organization();
    const set = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
    for (const verifier of [set.slice(0, 43), (set + set).slice(0, 128), `${'a'.repeat(39)}-._~`]) {
      const { exchange } = await issuedCode(apiKey, verifier);
      expect((await token(exchange)).status, verifier).toBe(200);
    }
  });

  it('four times at once: one answer has tokens, the rest invalid_grant, and the grant is revoked with the winner’s tokens', async () => {
    const { apiKey, client: owner } = await api.organization();
    const { exchange } = await issuedCode(apiKey);
    const answers = await Promise.all(Array.from({ length: 4 }, () => token(exchange)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400, 400]);
    const won = answers.find((res) => res.status === 200)!.body;
    for (const lost of answers.filter((res) => res.status !== 200)) expect(lost.body).toEqual({ error: 'invalid_grant', error_description: 'code was already used: the grant it belongs to is revoked; authorize again' });
    expect((await mcpCall(won.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: won.refresh_token, client_id: exchange.client_id })).body.error).toBe('invalid_grant');
    expect((await owner.get('/v1/oauth/grants')).body.grants).toEqual([]);
  });

  it('59 seconds after it was issued: tokens; 60 seconds after: invalid_grant, expired', async () => {
    const { apiKey } = await api.organization();
    const early = await issuedCode(apiKey);
    const late = await issuedCode(apiKey);
    await api.advanceTime('PT59S');
    expect((await token(early.exchange)).status).toBe(200);
    await api.advanceTime('PT1S');
    expect([(await token(late.exchange)).body]).toEqual([{ error: 'invalid_grant', error_description: 'code expired (a code lives 60 s)' }]);
  });
});

describe('a grant’s key or grant ended before the token endpoint is asked', () => {
  it('a code whose granting key was revoked since the consent: invalid_grant naming the key', async () => {
    const { organizationId } = await api.organization();
    const { key, token: apiKey } = await createApiKey(organizationId, null, 'Soon revoked', 'full');
    const { exchange } = await issuedCode(apiKey);
    await revokeApiKey(organizationId, key.keyId);
    expect((await token(exchange)).body).toEqual({ error: 'invalid_grant', error_description: 'the API key that granted code is revoked or expired' });
  });

  it('a refresh token of a revoked grant, or of a revoked key: invalid_grant, saying which', async () => {
    const { organizationId } = await api.organization();
    const { key, token: apiKey } = await createApiKey(organizationId, null, 'Granting', 'full');
    const first = await issuedCode(apiKey);
    const second = await issuedCode(apiKey);
    const [one, two] = [(await token(first.exchange)).body, (await token(second.exchange)).body];
    const { grants } = (await api.as(apiKey).get('/v1/oauth/grants')).body;
    const revoked = grants.find((grant: { clientId: string }) => grant.clientId === first.clientId);
    expect((await api.as(apiKey).delete(`/v1/oauth/grants/${revoked.id}`)).status).toBe(200);
    const refused = await token({ grant_type: 'refresh_token', refresh_token: one.refresh_token, client_id: first.clientId });
    expect(refused.body).toEqual({ error: 'invalid_grant', error_description: 'the grant was revoked; authorize again' });
    await revokeApiKey(organizationId, key.keyId);
    const ended = await token({ grant_type: 'refresh_token', refresh_token: two.refresh_token, client_id: second.clientId });
    expect(ended.body).toEqual({ error: 'invalid_grant', error_description: 'the API key that granted refresh_token is revoked or expired' });
  });
});

describe('a refresh token', () => {
  /** A grant's tokens, by an exchanged code. */
  async function grantedTokens(apiKey: string) {
    const { exchange } = await issuedCode(apiKey);
    const res = await token(exchange);
    expect(res.status).toBe(200);
    return { clientId: exchange.client_id, tokens: res.body as { access_token: string; refresh_token: string } };
  }

  it('without one of its parameters: invalid_request naming it, and the token is still good', async () => {
    const { apiKey } = await api.organization();
    const { clientId, tokens } = await grantedTokens(apiKey);
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId };
    await expectEachRequired(refresh);
    expect((await token(refresh)).status).toBe(200);
  });

  it('a character off, of another client, or an access token in its place: invalid_grant, and the token is still good', async () => {
    const { apiKey } = await api.organization();
    const { clientId, tokens } = await grantedTokens(apiKey);
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId };
    const otherClient = await registeredClient(api);
    await expectNearMissesRefused(refresh, [{ refresh_token: `${tokens.refresh_token}A` }, { refresh_token: tokens.refresh_token.slice(0, -1) }, { refresh_token: tokens.access_token }, { client_id: otherClient }]);
  });

  it('used by four refreshes at once: one answers tokens, the rest invalid_grant, and the grant is revoked', async () => {
    const { apiKey } = await api.organization();
    const { clientId, tokens } = await grantedTokens(apiKey);
    const answers = await Promise.all(Array.from({ length: 4 }, () => token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400, 400]);
    // Spent meanwhile, or already spent when read, or its grant already revoked by another that lost.
    const reused = /^(refresh_token was already used: the grant it belongs to is revoked; authorize again|the grant was revoked; authorize again)$/;
    for (const lost of answers.filter((res) => res.status !== 200)) expect(lost.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(reused) });
    const won = answers.find((res) => res.status === 200)!.body;
    expect((await mcpCall(won.access_token)).status).toBe(401);
  });

  it('just short of 30 days after it was issued: tokens; 30 days after: invalid_grant, expired', async () => {
    const { apiKey } = await api.organization();
    const early = await grantedTokens(apiKey);
    const late = await grantedTokens(apiKey);
    await api.advanceTime('P29DT23H59M');
    expect((await token({ grant_type: 'refresh_token', refresh_token: early.tokens.refresh_token, client_id: early.clientId })).status).toBe(200);
    await api.advanceTime('PT1M');
    const expired = await token({ grant_type: 'refresh_token', refresh_token: late.tokens.refresh_token, client_id: late.clientId });
    expect([expired.status, expired.body]).toEqual([400, { error: 'invalid_grant', error_description: 'refresh_token expired' }]);
  });
});

describe('a store that does not answer in time', () => {
  const FAULT = 'oauthStoreDown';
  afterEach(() => void dynamo.middlewareStack.remove(FAULT));

  it('answers the token endpoint 503 with Retry-After, asking for no Idempotency-Key, which the route takes none of', async () => {
    dynamo.middlewareStack.add(
      () => async () => {
        throw Object.assign(new Error('Connection timed out after 3000 ms'), { name: 'TimeoutError', $metadata: {} });
      },
      { step: 'initialize', name: FAULT },
    );
    const res = await token({ grant_type: 'refresh_token', refresh_token: 'sp_ort_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', client_id: 'client_01JD3F4G5H6J7K8M9N0P1Q2R3S' });
    expect([res.status, res.body.error.code, res.headers.get('retry-after')]).toEqual([503, 'STORE_UNAVAILABLE', '1']);
    expect(res.body.message).toBe('The store did not answer in time, so the outcome is unknown; retry after Retry-After');
  });
});

describe('what the document says the OAuth requests need', () => {
  it('marks what the server requires as required: the authorization request’s client, redirect URI, response type and PKCE, the token request’s grant type and client', async () => {
    const document = (await api.anonymous.get('/openapi')).body;
    const authorize = document.paths['/oauth/authorize'].get.parameters.filter((parameter: { in: string }) => parameter.in === 'query');
    expect(Object.fromEntries(authorize.map((parameter: { name: string; required: boolean }) => [parameter.name, parameter.required]))).toEqual({
      response_type: true,
      client_id: true,
      redirect_uri: true,
      code_challenge: true,
      code_challenge_method: true,
      scope: false,
      state: false,
      resource: false,
    });
    expect(document.paths['/oauth/token'].post.requestBody.content['application/x-www-form-urlencoded'].schema.required).toEqual(['grant_type', 'client_id']);
  });

  it('counts a parameter’s length in characters, as the document’s maxLength does: 1 000 emoji are a state, 1 001 are not; 100 are a scope, 101 are not', async () => {
    const clientId = await registeredClient(api);
    const { challenge } = pkce();
    expect((await consentPage(authorizeUrl(clientId, challenge, { state: '😀'.repeat(1000) }))).status).toBe(200);
    const over = await consentPage(authorizeUrl(clientId, challenge, { state: '😀'.repeat(1001) }));
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: { details: unknown[] } }).error.details).toEqual([{ path: 'state', message: 'state must be at most 1000 characters' }]);
    const scope = (length: number) => token({ grant_type: 'refresh_token', refresh_token: 'sp_ort_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', client_id: 'client_01JD3F4G5H6J7K8M9N0P1Q2R3S', scope: '😀'.repeat(length) });
    expect((await scope(100)).body.error).toBe('invalid_client');
    expect((await scope(101)).body).toEqual({ error: 'invalid_request', error_description: 'scope must be at most 100 characters' });
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { formFieldsOf, LOOPBACK_REDIRECT, pkce, registeredClient, consentPage } from '../../test/support/oauth';

/**
 * The consent page as deployed: behind a base with https and a path (an API Gateway stage's, or a distribution's
 * behavior), which the local server's own http://127.0.0.1:<port> never has. The functions find it in PUBLIC_BASE_URL.
 */
const BASE = 'https://pipeline.example.com/prod';
process.env.PUBLIC_BASE_URL = BASE;
const api = useTestApi({ asDeployed: true });

describe('the consent page under a deployed base', () => {
  it('keeps the base’s path in its sign-in link and its form, and sets its cookie __Host-: Secure, and for Path=/ as the prefix requires', async () => {
    const clientId = await registeredClient(api);
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${BASE}/mcp` });
    const res = await consentPage(`${api.url}/oauth/authorize?${query}`);
    const page = await res.text();
    expect(res.status, page).toBe(200);
    const signIn = /<a href="([^"]+)">Sign in to the console<\/a>/.exec(page)?.[1]?.replace(/&amp;/g, '&');
    expect(signIn).toBe(`/prod/console/sign-in?return=${encodeURIComponent(`/prod/oauth/authorize?${query}`)}`);
    expect(page).toContain('action="/prod/oauth/authorize"');
    expect(res.headers.get('set-cookie')).toMatch(/^__Host-oauth_csrf=[A-Za-z0-9_-]{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=900; Secure$/);
  });

  it('takes the page’s token with its __Host- cookie alone: the same value in a plain cookie, which another host could set, is refused', async () => {
    const { apiKey } = await api.organization();
    const query = new URLSearchParams({ response_type: 'code', client_id: await registeredClient(api), redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const page = await consentPage(`${api.url}/oauth/authorize?${query}`);
    const fields = { ...formFieldsOf(await page.text()), api_key: apiKey, decision: 'allow' };
    const value = /^__Host-oauth_csrf=([^;]+);/.exec(page.headers.get('set-cookie') ?? '')![1]!;
    const post = (cookie: string) => fetch(`${api.url}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams(fields) });
    const plain = await post(`oauth_csrf=${value}`);
    expect([plain.status, JSON.stringify(await plain.json())]).toEqual([400, expect.stringContaining('csrf_token')]);
    const hosted = await post(`__Host-oauth_csrf=${value}`);
    expect([hosted.status, new URL(hosted.headers.get('location')!).searchParams.get('iss')]).toEqual([303, BASE]);
  });
});

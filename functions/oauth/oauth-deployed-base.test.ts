import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { LOOPBACK_REDIRECT, pkce, registeredClient } from '../../test/support/oauth';

/**
 * The consent page as deployed: behind a base with https and a path (an API Gateway stage's, or a distribution's
 * behavior), which the local server's own http://127.0.0.1:<port> never has. The functions find it in PUBLIC_BASE_URL.
 */
const BASE = 'https://pipeline.example.com/prod';
process.env.PUBLIC_BASE_URL = BASE;
const api = useTestApi({ asDeployed: true });

describe('the consent page under a deployed base', () => {
  it('keeps the base’s path in its sign-in link and its form, and sets its cookie Secure, for that path alone', async () => {
    const clientId = await registeredClient(api);
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${BASE}/mcp` });
    const res = await fetch(`${api.url}/oauth/authorize?${query}`);
    const page = await res.text();
    expect(res.status, page).toBe(200);
    const signIn = /<a href="([^"]+)">Sign in to the console<\/a>/.exec(page)?.[1]?.replace(/&amp;/g, '&');
    expect(signIn).toBe(`/prod/console/sign-in?return=${encodeURIComponent(`/prod/oauth/authorize?${query}`)}`);
    expect(page).toContain('action="/prod/oauth/authorize"');
    expect(res.headers.get('set-cookie')).toMatch(/^[^;]+; Path=\/prod\/oauth\/authorize; HttpOnly; SameSite=Strict; Max-Age=900; Secure$/);
  });
});

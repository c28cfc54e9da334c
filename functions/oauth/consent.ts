import { createHmac, randomBytes, type KeyObject } from 'node:crypto';
import * as v from 'valibot';
import { ValidationError } from '#shared/errors';
import { OAuthError } from './errors';
import { sameSecret } from '#shared/auth/tokens';
import { cookieNamed } from '#shared/http/cookies';
import { keyringFromEnvironment, type CursorKeyring } from '#shared/store/cursor-keys';
import { SESSION_COOKIE } from '../sign-in/settings';
import { API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope } from '#shared/auth/scopes';
import { mayGrant } from './scopes';
import { hasRedirectUri, isDocumentUrl, resolveClient, type OAuthClient } from './clients';
import type { AuthorizeQuery } from './schema';

/**
 * The consent page's CSRF cookie, which holds a random value the form's token is made from. `__Host-` where the API is
 * on https: a browser takes it only Secure, for Path=/ and from this host itself, so no other host (a sibling
 * subdomain) can set or shadow it. Plain on http://localhost (npm start), where a browser keeps no Secure cookie.
 */
export const csrfCookieName = (secure: boolean) => (secure ? '__Host-oauth_csrf' : 'oauth_csrf');

/** What an authorization request asks for, once checked. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  resource: string;
}

/** The authorization response's URL: the redirect URI with the code or error, the state, and the issuer (RFC 9207). */
export function redirectTo(request: Pick<AuthorizationRequest, 'redirectUri' | 'state'>, issuer: string, params: Record<string, string>): string {
  const url = new URL(request.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (request.state !== undefined) url.searchParams.set('state', request.state);
  url.searchParams.set('iss', issuer);
  return url.href;
}

const refused = (name: string, message: string) => new ValidationError([{ path: name, message }]);
const missing = (name: string) => refused(name, `${name} is required`);

/**
 * Checks an authorization request. Every fault answers 400 naming the field, never a redirect: before the person has
 * seen the consent page, sending them to a redirect URI would make this API a redirector for anyone who registered
 * one (RFC 9700 §4.11.2). Only the person's own answer on the page sends them back (a code, or access_denied).
 */
export async function checkAuthorizationRequest(params: v.InferOutput<typeof AuthorizeQuery>, mcpResource: string, clientOf = resolveClient): Promise<AuthorizationRequest> {
  if (!params.client_id) throw missing('client_id');
  const client = await clientOf(params.client_id).catch((error: unknown) => {
    throw error instanceof OAuthError ? refused('client_id', `client_id: ${error.description}`) : error;
  });
  if (!params.redirect_uri) throw missing('redirect_uri');
  if (!hasRedirectUri(client, params.redirect_uri)) throw refused('redirect_uri', `redirect_uri ${params.redirect_uri} is not one of the client's redirect URIs`);
  if (params.response_type !== 'code') throw refused('response_type', 'response_type must be code (unsupported_response_type)');
  if (!params.code_challenge || params.code_challenge_method !== 'S256') throw refused(params.code_challenge ? 'code_challenge_method' : 'code_challenge', 'PKCE is required: code_challenge with code_challenge_method S256 (invalid_request)');
  if (!/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge)) throw refused('code_challenge', 'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)');
  if (params.resource !== undefined && params.resource !== mcpResource) throw refused('resource', `resource must be ${mcpResource}: this server issues tokens for its own MCP server only (invalid_target)`);
  const asked = (params.scope ?? '').split(' ').filter(Boolean);
  const unknown = asked.find((scope) => !isApiKeyScope(scope));
  if (unknown) throw refused('scope', `scope ${unknown} is none of ${API_KEY_SCOPES.join(', ')} (invalid_scope)`);
  return { client, redirectUri: params.redirect_uri, state: params.state, codeChallenge: params.code_challenge, resource: mcpResource };
}

let keyring: CursorKeyring | undefined;
/** The API's signing key, the one list cursors are signed with (shared/store/cursor-keys.ts): read on the first page. */
const keys = () => (keyring ??= keyringFromEnvironment());

/**
 * The form's token: an HMAC under the signing key of the cookie's value, of the console session cookie the browser
 * sends ('' without one), and of the client as the page checked it (its id, the redirect URI, its name). Only this
 * server makes one, so a cookie planted with a token of one's own choosing is refused; a page served to one session is
 * refused with another; and the post may trust the client the page showed without fetching its document again. Its
 * label keeps it apart from a cursor's signature.
 */
const tokenOf = (key: KeyObject, cookie: string, session: string, client: ServedClient) =>
  createHmac('sha256', key).update(JSON.stringify(['oauth-consent-csrf', cookie, session, client.clientId, client.redirectUri, client.clientName])).digest('base64url');

/** The client a consent page was served for, as its form carries it back. */
export interface ServedClient {
  clientId: string;
  redirectUri: string;
  clientName: string;
}

const sessionOf = (cookieHeader: string | undefined) => cookieNamed(cookieHeader, SESSION_COOKIE) ?? '';

/** A new page's CSRF cookie value (random), and its form's token, bound to that value, the browser's session and the client checked. */
export async function newCsrf(cookieHeader: string | undefined, checked: AuthorizationRequest): Promise<{ cookie: string; token: string }> {
  const cookie = randomBytes(24).toString('base64url');
  return { cookie, token: tokenOf(await keys().signingKey(), cookie, sessionOf(cookieHeader), servedClientOf(checked)) };
}

const servedClientOf = (checked: AuthorizationRequest): ServedClient => ({ clientId: checked.client.clientId, redirectUri: checked.redirectUri, clientName: checked.client.clientName });

/**
 * A consent post's CSRF token: the one this server made for the cookie the browser sends, its session and the client
 * the form names, compared in constant time. Answers that client, as the page was served for it.
 */
export async function checkCsrf(posted: string | undefined, cookieHeader: string | undefined, secure: boolean, client: Partial<ServedClient>): Promise<ServedClient> {
  const cookie = cookieNamed(cookieHeader, csrfCookieName(secure));
  const session = sessionOf(cookieHeader);
  const { clientId, redirectUri, clientName } = client;
  // A token no key signed makes the keys be read again, at most every 30 s (a replaced key's pages stay good).
  if (!posted || !cookie || clientId === undefined || redirectUri === undefined || clientName === undefined || !(await keys().verify((key) => sameSecret(posted, tokenOf(key, cookie, session, { clientId, redirectUri, clientName }))))) {
    throw new ValidationError([{ path: 'csrf_token', message: 'csrf_token must be the one the consent page was served with (open the authorization page again)' }]);
  }
  return { clientId, redirectUri, clientName };
}

/**
 * The client of a consent post whose CSRF token checked: a client ID metadata document's as the page showed it (no
 * fetch: the page fetched it, and the token proves what it found), a registered client as its item says now.
 */
export const postedClient = (served: ServedClient) => (clientId: string): Promise<OAuthClient> =>
  isDocumentUrl(clientId) && clientId === served.clientId ? Promise.resolve({ kind: 'document', clientId, clientName: served.clientName, redirectUris: [served.redirectUri] }) : resolveClient(clientId);

/**
 * The Set-Cookie of a page's CSRF cookie. `__Host-` needs Path=/, so on https it goes to every path of the API's host,
 * whose other routes ignore it; on http it stays on the authorization endpoint's path (`path`, below a stage's).
 */
export const csrfSetCookie = (value: string, secure: boolean, path: string) =>
  `${csrfCookieName(secure)}=${value}; Path=${secure ? '/' : path}; HttpOnly; SameSite=Strict; Max-Age=900${secure ? '; Secure' : ''}`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SCOPE_WORDS: Record<ApiKeyScope, string> = {
  read: 'Read: look up leads, inquiries, appointments and settings',
  write: 'Write: also create and change records (never delete)',
  full: 'Full: everything the key may do, deleting included',
};

/** The headers of the page: no script at all, styles by nonce, no framing, the form posting here or to the client's redirect origin. */
export function pageHeaders(nonce: string, redirectUri: string, csrfCookie: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self' ${new URL(redirectUri).origin}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Set-Cookie': csrfCookie,
  };
}

/** The member a console session signs in, who grants for their organization without a key, up to `widest`. */
export interface ConsentingMember {
  name: string;
  organizationName: string;
  widest: ApiKeyScope;
}

/**
 * The consent page: who asks, where the person goes back to, and the scope to grant (`read` chosen). A member signed in
 * to the console grants as themself; anyone else proves access with an API key, or signs in first (`signInUrl`).
 */
export function consentPage(request: AuthorizationRequest, params: Record<string, string | undefined>, csrf: string, nonce: string, action: string, problem?: string, member?: ConsentingMember, signInUrl?: string): string {
  const hidden = Object.entries({ ...params, client_name: request.client.clientName, csrf_token: csrf })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value!)}">`)
    .join('');
  const offered = member ? API_KEY_SCOPES.filter((scope) => mayGrant(member.widest, scope)) : API_KEY_SCOPES;
  const scopes = offered.map((scope) => `<label><input type="radio" name="granted_scope" value="${scope}"${scope === 'read' ? ' checked' : ''}> ${escape(SCOPE_WORDS[scope])}</label>`).join('');
  const signInLink = signInUrl ? `\n<p>A member of the organization? <a href="${escape(signInUrl)}">Sign in to the console</a> and come back here, with no key.</p>` : '';
  const proof = member
    ? `<p>You are signed in as <strong>${escape(member.name)}</strong> of <strong>${escape(member.organizationName)}</strong>: ` + 'you grant access to its pipeline.</p>'
    : `<label>An API key of your organization <input type="password" name="api_key" autocomplete="off" required></label>
<small>It proves you may grant access; it is not given to ${escape(request.client.clientName)}. What you grant is never more than the key may do, and ends when the key is revoked.</small>${signInLink}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Connect ${escape(request.client.clientName)}</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.4rem 0}input[type=password]{width:100%;padding:.5rem;font:inherit}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}small{color:#555}</style></head>
<body><main><h1>Connect ${escape(request.client.clientName)}</h1>
<p><strong>${escape(request.client.clientName)}</strong> asks to use the sales pipeline of your organization through its MCP server.
You will be sent back to <strong>${escape(new URL(request.redirectUri).host)}</strong>.</p>
${problem ? `<p role="alert"><strong>${escape(problem)}</strong></p>` : ''}<form method="post" action="${escape(action)}">${hidden}
${proof}
<fieldset><legend>What it may do</legend>${scopes}</fieldset>
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button>
</form></main></body></html>`;
}

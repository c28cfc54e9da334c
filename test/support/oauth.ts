import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, expect } from 'vitest';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TestApi } from './api';
import { requestFrom, type AnsweredFrom } from './from-address';

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A command-line client's loopback redirect URI. */
export const LOOPBACK_REDIRECT = 'http://127.0.0.1:33418/callback';

/** The fields of the consent page's form, as a browser would post them back. */
export function formFieldsOf(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, value!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')]));
}

/** The CSRF cookie a page set, as a browser sends it back. */
export const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0]!;

let pages = 0;

/**
 * The consent page at `authorizationUrl`, asked for as a browser does (no redirect followed), from a loopback address of
 * its own: a file asks for more pages in a minute than one address may (functions/oauth/source-limits.ts).
 */
export function consentPageAnswer(authorizationUrl: string | URL, headers: Record<string, string> = {}): Promise<AnsweredFrom> {
  const n = pages++;
  return requestFrom(`127.0.${50 + (Math.floor(n / 250) % 50)}.${(n % 250) + 1}`, 'GET', String(authorizationUrl), undefined, headers);
}

/** The same, as fetch answers. */
export async function consentPage(authorizationUrl: string | URL, headers: Record<string, string> = {}): Promise<Response> {
  const answer = await consentPageAnswer(authorizationUrl, headers);
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
  return new Response(typeof answer.body === 'string' || answer.body === undefined ? answer.body : JSON.stringify(answer.body), { status: answer.status, headers: answerHeaders });
}

/**
 * Walks the consent page as a browser does: opens the authorization URL, then posts the form it shows with the API key
 * and the scope chosen (and the decision), with the page's cookie. Answers the post's answer (not followed).
 */
export async function consent(authorizationUrl: string | URL, apiKey: string, { scope = 'read', decision = 'allow' }: { scope?: string; decision?: string } = {}): Promise<Response> {
  const page = await consentPage(authorizationUrl);
  if (page.status !== 200) throw new Error(`The authorization page answered ${page.status}: ${await page.text()}`);
  const html = await page.text();
  const fields = formFieldsOf(html);
  const action = new URL(/<form method="post" action="([^"]+)">/.exec(html)![1]!, authorizationUrl);
  const body = new URLSearchParams({ ...fields, api_key: apiKey, granted_scope: scope, decision });
  return fetch(action, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(page) }, body });
}

/**
 * Walks the consent page as a member signed in to the console in this browser: the session's cookie goes with the page
 * and the post, and no key is pasted. Answers the post's answer (not followed).
 */
export async function consentAsMember(authorizationUrl: string | URL, sessionToken: string, { scope = 'read', decision = 'allow' }: { scope?: string; decision?: string } = {}): Promise<Response> {
  const session = `__Host-session=${sessionToken}`;
  const page = await consentPage(authorizationUrl, { cookie: session });
  if (page.status !== 200) throw new Error(`The authorization page answered ${page.status}: ${await page.text()}`);
  const html = await page.text();
  const action = new URL(/<form method="post" action="([^"]+)">/.exec(html)![1]!, authorizationUrl);
  const cookies = [...page.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!), session].join('; ');
  const body = new URLSearchParams({ ...formFieldsOf(html), granted_scope: scope, decision });
  return fetch(action, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies }, body });
}

/**
 * An assistant a member signed in to a session connects, end to end: a client registered, the consent page walked with
 * the session's cookie at `scope`, and the code exchanged (200 asserted). Answers the token endpoint's body and the
 * client's id, for a refresh.
 */
export async function grantedByMember(api: TestApi, sessionToken: string, scope = 'read'): Promise<{ clientId: string; tokens: { access_token: string; refresh_token: string } }> {
  const clientId = await registeredClient(api);
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope });
  const code = redirectedWith(await consentAsMember(`${api.url}/oauth/authorize?${query}`, sessionToken, { scope })).get('code');
  if (!code) throw new Error(`no code for the member's consent to ${scope}`);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
  const exchanged = await api.anonymous.request('POST', '/oauth/token', { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect(exchanged.status).toBe(200);
  return { clientId, tokens: exchanged.body };
}

/** What the consent post sent the browser back with. */
export const redirectedWith = (response: Response) => new URL(response.headers.get('location') ?? 'about:blank').searchParams;

/** An OAuthClientProvider kept in memory: what a desktop client stores, with the authorization URL it would open in a browser. */
export class MemoryProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(readonly clientMetadataUrl?: string) {}

  get redirectUrl() {
    return LOOPBACK_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test assistant', redirect_uris: [LOOPBACK_REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  state = () => 'state-1';
  clientInformation = () => this.information;
  saveClientInformation = (information: OAuthClientInformationMixed) => void (this.information = information);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
  invalidateCredentials = (scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') => {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
  };
}

/** One self-signed certificate for `localhost`, made by openssl for the file: every local client host serves it. */
let certificate: { key: string; cert: string } | undefined;
function localhostCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'oauth-host-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
  return (certificate = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') });
}

/** A local https host: listening on 127.0.0.1, named `localhost`, closed after the file; its connections and requests counted. */
async function localHost(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const { key, cert } = localhostCertificate();
  let [connections, requests, open] = [0, 0, 0];
  let waiting: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer({ key, cert }, (request, response) => {
    requests += 1;
    waiting = waiting.filter((wait) => (wait.count <= requests ? void wait.resolve() : true));
    answer(request, response);
  });
  server.on('secureConnection', () => void (connections += 1));
  server.on('connection', (socket) => {
    open += 1;
    socket.on('close', () => void (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `https://localhost:${port}`,
    hostPort: `localhost:${port}`,
    ca: cert,
    /** TLS connections accepted so far. */
    connections: () => connections,
    /** Connections still open now, as the host sees them. */
    openConnections: () => open,
    /** Resolves once this many requests have been received. */
    received: (count: number) => new Promise<void>((resolve) => (requests >= count ? resolve() : waiting.push({ count, resolve }))),
  };
}

/**
 * An https host on this machine serving client ID metadata documents (path → JSON, or text), each answered with the headers
 * `headersOf` gives its path; `requests` counts the requests of each path.
 */
export async function clientDocumentHost(documents: (origin: string) => Record<string, unknown>, headersOf: (path: string) => Record<string, string> = () => ({})) {
  const requests = new Map<string, number>();
  const host = await localHost((request, response) => {
    const path = request.url ?? '';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const document = documents(host.origin)[path] as Record<string, unknown> | undefined;
    // A document that is only `{ location }` answers a redirect there; one that is text is answered as it is; a list of
    // texts is sent piece by piece, each written once the one before it has been sent.
    if (typeof document?.location === 'string') return void response.writeHead(302, { location: document.location }).end();
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json', ...headersOf(path) });
    if (Array.isArray(document)) return void sendInPieces(response, document as string[]);
    response.end(typeof document === 'string' ? document : JSON.stringify(document ?? {}));
  });
  return { ...host, requests: (path: string) => requests.get(path) ?? 0 };
}

async function sendInPieces(response: ServerResponse, pieces: string[]) {
  for (const piece of pieces) {
    if (response.destroyed) return;
    await new Promise<void>((resolve) => response.write(piece, () => setImmediate(resolve)));
  }
  response.end();
}

/** An https host on this machine that answers 200 and the start of a document, then never sends the rest. */
export async function tricklingHost() {
  return localHost((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"client_id":');
  });
}

/**
 * An https host on this machine that accepts every connection and request and never answers; `open` counts the
 * requests still held, `released` resolves once the caller has dropped each.
 */
export async function hangingHost() {
  const held = new Set<ServerResponse>();
  let releasing: (() => void)[] = [];
  const host = await localHost((_request, response) => {
    held.add(response);
    response.on('close', () => {
      held.delete(response);
      if (held.size === 0) releasing = releasing.filter((resolve) => void resolve());
    });
  });
  return { ...host, open: () => held.size, released: () => new Promise<void>((resolve) => (held.size === 0 ? resolve() : releasing.push(resolve))) };
}

let registrations = 0;

/**
 * Registers a client by dynamic registration, with a loopback redirect URI, from a loopback address of its own: a
 * file's tests register more clients in a minute than one address may (functions/oauth/source-limits.ts).
 */
export async function registeredClient(api: TestApi, redirectUris = [LOOPBACK_REDIRECT]): Promise<string> {
  registrations += 1;
  const address = `127.0.${100 + Math.floor(registrations / 250)}.${(registrations % 250) + 1}`;
  const registered = await requestFrom(address, 'POST', `${api.url}/oauth/register`, JSON.stringify({ client_name: 'Test assistant', redirect_uris: redirectUris }), { 'content-type': 'application/json' });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  return registered.body.client_id as string;
}

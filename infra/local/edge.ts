import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { logger } from '#shared/observability';
import { cookiesOf } from '#shared/http/cookies';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '#shared/http/caller-address';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { timingSafeEqual } from 'node:crypto';
import { CONSOLE_PATH, CONSOLE_SECURITY_HEADERS } from '../../functions/sign-in/site';
import { UNHASHED_FILES } from '../console/installable';

/**
 * What CloudFront does in front of the API where the console is deployed (infra/cdk: the console's distribution), for
 * `npm start` and the tests: the console's files at /console (index.html for any path of the app), and on the API's
 * paths the same CloudFront Function, from the same file, that writes the viewer's address and turns the session
 * cookie into the bearer token.
 */

type EdgeRequest = { uri: string; headers: Record<string, { value: string }>; cookies: Record<string, { value: string }> };
const EDGE_FUNCTION_FILE = new URL('../../functions/sign-in/edge/viewer-request.js', import.meta.url);
const viewerRequestFunction = new Function(`${readFileSync(EDGE_FUNCTION_FILE, 'utf8')}\nreturn handler;`)() as (event: { request: EdgeRequest; viewer: { ip: string } }) => EdgeRequest;

/** Sets a header on a request on its way in, replacing any of that name the client sent. */
function setHeader(request: IncomingMessage, name: string, value: string): void {
  request.headers[name] = value;
  const raw: string[] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]!.toLowerCase() !== name) raw.push(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
  request.rawHeaders.splice(0, request.rawHeaders.length, ...raw, name, value);
}

/** Runs the viewer-request function on a request to the API, with the viewer's address as CloudFront gives it, and keeps the headers it sets. */
export function applyViewerRequestFunction(request: IncomingMessage, path: string): void {
  const authorization = request.headers.authorization;
  const edge: EdgeRequest = {
    uri: path,
    headers: authorization === undefined ? {} : { authorization: { value: authorization } },
    cookies: Object.fromEntries(Object.entries(cookiesOf(request.headers.cookie)).map(([name, value]) => [name, { value }])),
  };
  // CloudFront gives the viewer's address as it is, never IPv4-mapped.
  const ip = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const after = viewerRequestFunction({ request: edge, viewer: { ip } }).headers;
  setHeader(request, VIEWER_ADDRESS_HEADER, after[VIEWER_ADDRESS_HEADER]!.value);
  if (after.authorization && after.authorization.value !== authorization) setHeader(request, 'authorization', after.authorization.value);
}

/**
 * The firewall's first rule, as `npm start`'s edge option runs it: a request that does not carry the origin secret
 * (one sent to the API's own address rather than through the distribution) is refused as the firewall refuses it.
 */
export function originGate(secret: string, api: RequestListener): RequestListener {
  const expected = Buffer.from(secret);
  return (request, response) => {
    const given = Buffer.from(String(request.headers[ORIGIN_SECRET_HEADER] ?? ''));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return api(request, response);
    response.writeHead(GATEWAY_RESPONSES.WAF_FILTERED.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify(gatewayResponseBody(GATEWAY_RESPONSES.WAF_FILTERED)));
  };
}

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.webmanifest': 'application/manifest+json' };

let built: Promise<string> | undefined;
/** The console, built once per process on its first request (most test servers never serve it). */
const consoleFiles = () =>
  (built ??= (async () => {
    const { buildConsole } = await import('../console/build');
    const outDir = mkdtempSync(join(tmpdir(), 'console-'));
    await buildConsole(outDir);
    return outDir;
  })());

/** A file of the console, or its index.html for a path of the app (no extension), as the distribution's function rewrites it. */
async function serveConsole(path: string, response: ServerResponse): Promise<void> {
  const root = await consoleFiles();
  const relative = path.slice(CONSOLE_PATH.length).replace(/^\/+/, '');
  const file = extname(relative) ? normalize(relative) : 'index.html';
  if (file.startsWith('..')) return void response.writeHead(404, CONSOLE_SECURITY_HEADERS).end();
  const body = await readFile(join(root, file)).catch(() => undefined);
  if (!body) return void response.writeHead(404, { ...CONSOLE_SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
  // Hashed assets never change; the page, manifest and service worker are asked for again each load, so a new release
  // is seen at once.
  const cacheControl = UNHASHED_FILES.includes(file) ? 'no-cache' : 'public, max-age=31536000, immutable';
  response.writeHead(200, { ...CONSOLE_SECURITY_HEADERS, 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': cacheControl });
  response.end(body);
}

/**
 * The API behind the console's edge: the console's files, and the viewer-request function on the API's paths. With
 * `originSecret`, the edge adds it to every request it sends the API, as the distribution's origin does.
 */
export function behindConsoleEdge(api: RequestListener, { originSecret }: { originSecret?: string } = {}): RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if ((path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`)) && (request.method === 'GET' || request.method === 'HEAD')) {
      serveConsole(path, response).catch((error: unknown) => {
        logger.error('console file failed', { path, error });
        if (!response.headersSent) response.writeHead(500).end();
      });
      return;
    }
    applyViewerRequestFunction(request, path);
    if (originSecret !== undefined) setHeader(request, ORIGIN_SECRET_HEADER, originSecret);
    api(request, response);
  };
}

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { logger } from '#shared/observability';
import { cookiesOf } from '#shared/http/cookies';
import { CONSOLE_PATH, CONSOLE_SECURITY_HEADERS } from '../../functions/console/site';

/**
 * What CloudFront does in front of the API where the console is deployed (infra/cdk: the console's distribution), for
 * `npm start` and the tests: the console's files at /console (index.html for any path of the app), and on the API's
 * paths the same CloudFront Function, from the same file, that turns the session cookie into the bearer token.
 */

type EdgeRequest = { headers: Record<string, { value: string }>; cookies: Record<string, { value: string }> };
const EDGE_FUNCTION_FILE = new URL('../../functions/console/edge/session-cookie.js', import.meta.url);
const sessionCookieFunction = new Function(`${readFileSync(EDGE_FUNCTION_FILE, 'utf8')}\nreturn handler;`)() as (event: { request: EdgeRequest }) => EdgeRequest;


/** Runs the viewer-request function on a request to the API, adding the header it adds. */
export function applySessionCookieFunction(request: IncomingMessage): void {
  const authorization = request.headers.authorization;
  const edge: EdgeRequest = { headers: authorization === undefined ? {} : { authorization: { value: authorization } }, cookies: Object.fromEntries(Object.entries(cookiesOf(request.headers.cookie)).map(([name, value]) => [name, { value }])) };
  const after = sessionCookieFunction({ request: edge }).headers.authorization?.value;
  if (after === undefined || after === authorization) return;
  request.headers.authorization = after;
  request.rawHeaders.push('Authorization', after);
}

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

let built: Promise<string> | undefined;
/** The console, built once per process on its first request (most test servers never serve it). */
const consoleFiles = () =>
  (built ??= (async () => {
    const { buildConsole } = await import('../../functions/console/app/build');
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
  // Hashed assets never change; the page is asked for again each load, so a new release is seen at once.
  const cacheControl = file === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable';
  response.writeHead(200, { ...CONSOLE_SECURITY_HEADERS, 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': cacheControl });
  response.end(body);
}

/** The API behind the console's edge: the console's files, and the session cookie function on the API's paths. */
export function behindConsoleEdge(api: RequestListener): RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if ((path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`)) && (request.method === 'GET' || request.method === 'HEAD')) {
      serveConsole(path, response).catch((error: unknown) => {
        logger.error('console file failed', { path, error });
        if (!response.headersSent) response.writeHead(500).end();
      });
      return;
    }
    if (path.startsWith('/v1/')) applySessionCookieFunction(request);
    api(request, response);
  };
}

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REFERENCE_RENDERER } from '#shared/openapi/schemas';
import { useTestApi } from './support/api';

/**
 * The reference page's renderer as a browser gets it: under the hash of its content, gzipped, kept for a
 * year. Read with node:http, which neither decompresses (as fetch does) nor hides what crossed the wire.
 */
const api = useTestApi();
const asset = readFileSync(join('node_modules', REFERENCE_RENDERER));
const scriptPath = `/docs/api-reference.${createHash('sha256').update(asset).digest('hex').slice(0, 12)}.js`;
/** What a browser sends (Chromium's Accept-Encoding). */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
/** What a first visit to /docs may cost: the page, the renderer and the document, headers included. */
const FIRST_LOAD_BUDGET_BYTES = 1_500_000;

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent, still encoded. */
  body: Buffer;
  /** Every byte read off the connection: status line, headers, framing and body. */
  wireBytes: number;
}

function rawGet(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // A connection of its own, so its byte count is this answer's alone.
    const sent = request(`${api.url}${path}`, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks), wireBytes: response.socket.bytesRead }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the reference page’s renderer', () => {
  it('is named in the page by the hash of its content', async () => {
    const page = await rawGet('/docs', { 'accept-encoding': BROWSER_ENCODINGS });
    expect(page.status).toBe(200);
    expect(page.body.toString('utf8')).toContain(JSON.stringify(scriptPath));
  });

  it('answers gzipped to a client that accepts it, cacheable for a year, the same bytes once gunzipped', async () => {
    const script = await rawGet(scriptPath, { 'accept-encoding': BROWSER_ENCODINGS });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['content-encoding']).toBe('gzip');
    expect(script.headers.vary).toBe('Accept-Encoding');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(script.body).equals(asset)).toBe(true);
    expect(script.body.length).toBeLessThan(asset.length / 3);
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['gzip refused', { 'accept-encoding': 'gzip;q=0, identity' }],
  ])('answers the plain script for %s', async (_, headers: Record<string, string>) => {
    const script = await rawGet(scriptPath, headers);
    expect(script.status).toBe(200);
    expect(script.headers['content-encoding']).toBeUndefined();
    expect(script.headers.vary).toBe('Accept-Encoding');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body.equals(asset)).toBe(true);
  });

  it.each(['/docs/api-reference.000000000000.js', '/docs/api-reference.js', `${scriptPath}.map`])('answers 404 with the envelope, not for caching, for %s', async (path) => {
    const res = await api.anonymous.get(path);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { status: 404, code: 'NOT_FOUND' } });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it(`costs a first visit at most ${FIRST_LOAD_BUDGET_BYTES / 1e6} MB over the wire: page, renderer and document`, async () => {
    const answers = await Promise.all(['/docs', scriptPath, '/openapi'].map((path) => rawGet(path, { 'accept-encoding': BROWSER_ENCODINGS })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const total = answers.reduce((sum, answer) => sum + answer.wireBytes, 0);
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });
});

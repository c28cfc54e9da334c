import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { applyViewerRequestFunction } from '../infra/local/edge';

// The distribution's viewer-request function (functions/sign-in/edge/viewer-request.js), run as the local edge runs it.
const TOKEN = `sps_${'a'.repeat(32)}`;

function through(path: string, headers: Record<string, string>, remoteAddress = '::ffff:203.0.113.5') {
  const raw = Object.entries(headers).flat();
  const request = { headers: { ...headers }, rawHeaders: raw, socket: { remoteAddress } } as unknown as IncomingMessage;
  applyViewerRequestFunction(request, path);
  return request;
}

describe('the viewer-request function', () => {
  it('makes the session cookie the bearer token on /v1/ alone, when no Authorization is sent', () => {
    expect(through('/v1/leads', { cookie: `__Host-session=${TOKEN}` }).headers.authorization).toBe(`Bearer ${TOKEN}`);
    for (const path of ['/mcp', '/oauth/token', '/x/v1/leads', '/v1']) expect(through(path, { cookie: `__Host-session=${TOKEN}` }).headers.authorization, path).toBeUndefined();
  });

  it('leaves a request’s own Authorization as it is', () => {
    expect(through('/v1/leads', { cookie: `__Host-session=${TOKEN}`, authorization: 'Bearer sp_live_own' }).headers.authorization).toBe('Bearer sp_live_own');
  });

  it('takes only a whole session token: not one with more before or after it, one too short or too long, or another cookie', () => {
    for (const value of [`x${TOKEN}`, `${TOKEN}!`, `sps_${'a'.repeat(15)}`, `sps_${'a'.repeat(201)}`, '']) {
      expect(through('/v1/leads', { cookie: `__Host-session=${value}` }).headers.authorization, value).toBeUndefined();
    }
    expect(through('/v1/leads', { cookie: `session=${TOKEN}` }).headers.authorization).toBeUndefined();
    expect(through('/v1/leads', { cookie: `__Host-session=sps_${'a'.repeat(16)}` }).headers.authorization).toBe(`Bearer sps_${'a'.repeat(16)}`);
  });

  it("writes the viewer's own address, as CloudFront gives it, over any the client sent, on every path", () => {
    for (const path of ['/v1/leads', '/oauth/register']) {
      const request = through(path, { 'x-viewer-address': '10.0.0.1', 'X-Viewer-Address': '10.0.0.2' });
      expect(request.headers['x-viewer-address']).toBe('203.0.113.5');
      expect(request.rawHeaders.filter((_, i) => i % 2 === 0 && request.rawHeaders[i]!.toLowerCase() === 'x-viewer-address')).toHaveLength(1);
    }
    expect(through('/v1/leads', {}, '2001:db8::9').headers['x-viewer-address']).toBe('2001:db8::9');
  });
});

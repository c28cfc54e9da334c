import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '#shared/http/middleware';
import { useTestApi, type ApiResponse } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';

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
    expect(calls.length).toBeGreaterThan(0);
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

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Client, TestApi } from './api';

/** The platforms' webhooks as their public documentation shows them (test/fixtures). */
export const RETELL_CALL_ANALYZED = readFileSync(new URL('../fixtures/retell-call-analyzed.json', import.meta.url), 'utf8');
export const VAPI_END_OF_CALL_REPORT = readFileSync(new URL('../fixtures/vapi-end-of-call-report.json', import.meta.url), 'utf8');

/** A Retell API key as its dashboard shows one (the one with the webhook badge signs the account's webhooks). */
export const RETELL_API_KEY = 'key_5f3c2a9d8e7b6a5f4c3d2e1f0a9b';

/**
 * What Retell sends in `x-retell-signature`, written from its documentation rather than from our code: `v=<unix ms>`
 * and `d=` the hex HMAC-SHA256, keyed with the API key, of the raw body followed by that timestamp.
 */
export const retellSignature = (body: string, { key = RETELL_API_KEY, at = Date.now() } = {}) => `v=${at},d=${createHmac('sha256', key).update(body + at).digest('hex')}`;

/** A fixture with some of its fields changed, as the platform would write it. */
export function edited(fixture: string, change: (payload: any) => void): string {
  const payload = JSON.parse(fixture);
  change(payload);
  return JSON.stringify(payload);
}

export interface Endpoint {
  id: string;
  url: string;
  secret: string;
  format: string;
}

export async function endpoint(client: Client, body: Record<string, unknown>): Promise<Endpoint> {
  const res = await client.post('/v1/inbound-endpoints', { name: 'Voice receptionist', source: 'CALL', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.inboundEndpoint;
}
export const retellEndpoint = (client: Client) => endpoint(client, { format: 'retell', platformSecret: RETELL_API_KEY });
export const vapiEndpoint = (client: Client) => endpoint(client, { format: 'vapi' });

/** The URL the platform is given: the endpoint's path; its token is not what proves a platform's post. */
export const pathOf = (created: Endpoint) => `/v1/inbound/${created.id}`;

/** Posts as each platform makes them, with no API key; their answers are held to the OpenAPI document like every other. */
export function platformPosts(api: TestApi) {
  const post = (path: string, body: string, headers: Record<string, string>) => api.anonymous.request('POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
  const postRetell = (created: Endpoint, body: string, signature = retellSignature(body)) => post(pathOf(created), body, { 'x-retell-signature': signature });
  const postVapi = (created: Endpoint, body: string, secret = created.secret) => post(pathOf(created), body, { 'x-vapi-secret': secret });
  return { post, postRetell, postVapi };
}

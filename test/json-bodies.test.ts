import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from '#shared/openapi/document';
import { takesJsonBody } from '#shared/routes/route';
import { routes } from '../functions/resources';
import { useTestApi } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';
import { requestFrom } from './support/from-address';

/**
 * A route whose body is JSON takes it as application/json alone: any other type (what a page on another site can post
 * without a preflight: text/plain, a form, multipart), or a body with no Content-Type, answers 415 before anything reads
 * it. The routes that take forms keep their own types.
 */
const api = useTestApi();

const LEAD = { name: 'Mia Wong', email: 'mia.wong@example.com' };
const NOT_JSON: [string, Record<string, string>, string][] = [
  ['text/plain', { 'content-type': 'text/plain;charset=UTF-8' }, JSON.stringify(LEAD)],
  ['a urlencoded form', { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams(LEAD).toString()],
  ['a multipart form', { 'content-type': 'multipart/form-data; boundary=b0undary' }, `--b0undary\r\nContent-Disposition: form-data; name="name"\r\n\r\nMia Wong\r\n--b0undary--\r\n`],
  ['no Content-Type', {}, JSON.stringify(LEAD)],
];

describe('a JSON route’s body sent as another type', () => {
  it.each(NOT_JSON)('is refused 415 UNSUPPORTED_MEDIA_TYPE as %s on POST /v1/leads, writes nothing, and keeps no answer for its Idempotency-Key', async (_, headers, body) => {
    const { apiKey, client } = await api.organization();
    const key = `lead-${Math.random()}`;
    const auth = { authorization: `Bearer ${apiKey}`, 'idempotency-key': key };
    let refused: Awaited<ReturnType<typeof requestFrom>> | undefined;
    const calls = await countDynamoCalls(async () => (refused = await requestFrom('127.0.0.1', 'POST', `${api.url}/v1/leads`, body, { ...auth, ...headers })));
    expect([refused!.status, refused!.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(refused!.body.error.message).toContain('Content-Type: application/json');
    // The key's claim, made and let go: no record of the lead.
    expect(calls.filter((call) => call !== 'PutItemCommand' && call !== 'DeleteItemCommand')).toEqual([]);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
    // The same key with the body as JSON runs: the refusal was not kept as its answer.
    const created = await client.post('/v1/leads', LEAD, { headers: { 'idempotency-key': key } });
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });

  it('is refused on a PATCH, and the record is unchanged', async () => {
    const { apiKey, client } = await api.organization();
    const lead = (await client.post('/v1/leads', LEAD)).body.lead;
    const patched = await requestFrom('127.0.0.1', 'PATCH', `${api.url}/v1/leads/${lead.id}`, JSON.stringify({ name: 'Mia Chen' }), { authorization: `Bearer ${apiKey}`, 'content-type': 'text/plain' });
    expect([patched.status, patched.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
  });

  it('is refused on an action that takes no fields, which still needs no body and no Content-Type', async () => {
    const { apiKey, client } = await api.organization();
    const endpoint = (await client.post('/v1/inbound-endpoints', { name: 'Website contact form', source: 'WEBFORM' })).body.inboundEndpoint;
    const rotate = (body?: string, headers: Record<string, string> = {}) =>
      requestFrom('127.0.0.1', 'POST', `${api.url}/v1/inbound-endpoints/${endpoint.id}/rotate`, body, { authorization: `Bearer ${apiKey}`, ...headers });
    expect((await rotate('{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await rotate()).status).toBe(200);
    expect((await rotate('{}', { 'content-type': 'application/json' })).status).toBe(200);
  });

  it('is refused at /mcp, whose JSON-RPC is JSON too', async () => {
    const { apiKey } = await api.organization();
    const answered = await requestFrom('127.0.0.1', 'POST', `${api.url}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'text/plain',
      accept: 'application/json, text/event-stream',
    });
    expect([answered.status, answered.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });
});

describe('the document', () => {
  it('declares 415 on every route whose body is JSON, and no 415 of the envelope’s on a route that reads its own types', () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const route of routes) {
      const responses = document.paths[route.path]![route.method.toLowerCase()]!.responses;
      const declared = '415' in responses;
      expect(declared, `${route.method} ${route.path}`).toBe(takesJsonBody(route) || route.responses?.[415] !== undefined);
    }
    // The forms OAuth's clients and consent page post, and the inbound post, which answers its own 415 (or a redirect).
    const formRoutes = routes.filter((route) => route.requestBodies !== undefined).map((route) => `${route.method} ${route.path}`);
    expect(formRoutes.sort()).toEqual(['POST /oauth/authorize', 'POST /oauth/token', 'POST /v1/inbound/{inboundEndpointId}']);
  });
});

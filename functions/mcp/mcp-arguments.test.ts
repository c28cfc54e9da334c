import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { CURATED_TOOLS, MAX_TOOL_URL_LENGTH } from './tools';

/**
 * What a tool call's arguments may be: each reaches the route as that route's parameter or is refused naming it, with
 * the API's own envelope; and what the JSON-RPC layer answers to messages the SDK would take as its own fault.
 */

const api = useTestApi();

/** One JSON-RPC message posted to /mcp, as a voice platform's tool call or curl sends it. */
const rpc = (client: Client, message: Record<string, unknown>) => client.post('/mcp', { jsonrpc: '2.0', ...message });

/** `tools/call` of one tool with these arguments; answers the JSON-RPC result. */
async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const res = await rpc(client, { id: 1, method: 'tools/call', params: { name, arguments: args } });
  expect(res.status).toBe(200);
  expect(res.body.error, JSON.stringify(res.body)).toBeUndefined();
  return res.body.result as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any> };
}

/** The API's error envelope a failed tool carries as its text (README: "a failure is an isError result whose text is the API's error envelope"). */
function envelopeOf(result: { isError?: boolean; content: { text: string }[] }) {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const text = result.content[0]!.text;
  expect(() => JSON.parse(text), `the failed tool's text is an error envelope: ${JSON.stringify(text)}`).not.toThrow();
  return JSON.parse(text).error as { status: number; code?: string; message: string; details?: { path: string; message: string }[] };
}

describe('MCP tools take their path arguments as the route’s parameters, never as other paths', () => {
  it('deleteCompanyNote with noteId ".." deletes no company', async () => {
    const { client } = await api.organization();
    const company = await created(client, '/v1/companies', 'company', { name: 'Harbour Strata' });
    const note = await created(client, `/v1/companies/${company.id}/notes`, 'note', { value: 'Call the strata manager first.' });

    // The tool's input schema gives noteId the pattern ^note_…; ".." is no note id, so at most a 400 or a 404.
    const result = await callTool(client, 'delete_company_note', { companyId: company.id, noteId: '..' });

    expect(envelopeOf(result)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'noteId must not be ".."' });
    // The company and its note are still there.
    expect((await client.get(`/v1/companies/${company.id}`)).status).toBe(200);
    expect((await client.get(`/v1/companies/${company.id}/notes/${note.id}`)).status).toBe(200);
  });

  it('getCompanyNote with noteId ".." answers no company in place of a note', async () => {
    const { client } = await api.organization();
    const company = await created(client, '/v1/companies', 'company', { name: 'Harbour Strata' });
    for (const noteId of ['..', '.']) {
      const result = await callTool(client, 'get_company_note', { companyId: company.id, noteId });
      expect(envelopeOf(result)).toMatchObject({ status: 400, message: `noteId must not be "${noteId}"` });
      expect(result.structuredContent).toBeUndefined();
    }
  });

  it('getLead without its required leadId is a failure naming leadId, not the list of leads', async () => {
    const { client } = await api.organization();
    await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
    const result = await callTool(client, 'get_lead', {});
    // Otherwise the answer is GET /v1/leads/ (the list) as getLead's structured content, which its output schema refuses.
    expect(result.structuredContent?.leads).toBeUndefined();
    expect(envelopeOf(result)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'leadId is required' });
  });

  it('lookup_caller without its required phone is a 400 naming phone', async () => {
    const { client } = await api.organization();
    expect(envelopeOf(await callTool(client, 'lookup_caller', {}))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'phone is required' });
    expect(envelopeOf(await callTool(client, 'lookup_caller', { phone: '' }))).toMatchObject({ status: 400, message: 'phone must not be ""' });
  });
});

describe('MCP tool arguments the input schema refuses', () => {
  it('refuses an idempotencyKey that is not text, rather than writing without one', async () => {
    const { client } = await api.organization();
    // The input schema says idempotencyKey is a string; dropped, a retry would write twice.
    const error = envelopeOf(await callTool(client, 'create_faq', { question: 'Do you charge a call-out fee?', answer: 'Yes, $89.', idempotencyKey: 20241124 }));
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'idempotencyKey must be a non-empty string' });
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(0);
  });

  it('an empty idempotencyKey (minLength 1) is refused, not dropped', async () => {
    const { client } = await api.organization();
    const result = await callTool(client, 'create_faq', { question: 'Do you charge a call-out fee?', answer: 'Yes, $89.', idempotencyKey: '' });
    expect(envelopeOf(result)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(0);
  });

  it('a path or query argument holding half of a character (a lone surrogate) is refused naming it, as no URL can carry it', async () => {
    const { client } = await api.organization();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Zoë Park', phone: '+61412345002' });
    const message = (name: string) => `${name} must be text a URL can carry: it holds half of a character (a lone surrogate)`;
    expect(envelopeOf(await callTool(client, 'get_lead', { leadId: `${lead.id}\ud800` }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'leadId', message: message('leadId') }] });
    expect(envelopeOf(await callTool(client, 'search_leads', { q: 'Zo\udc00' }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'q', message: message('q') }] });
    // A whole pair is one character, and reaches the route.
    expect((await callTool(client, 'search_leads', { q: 'Zoë \ud83d\ude00' })).isError).toBeFalsy();
    const found = await callTool(client, 'get_lead', { leadId: lead.id });
    expect(JSON.parse(found.content[0]!.text).lead).toMatchObject({ id: lead.id, firstName: 'Zoë', lastName: 'Park' });
  });

  it('an oversized query argument answers the API’s error envelope naming it, not an empty text', async () => {
    const { client } = await api.organization();
    // search_leads' input schema: q is at most 254 characters.
    const error = envelopeOf(await callTool(client, 'search_leads', { q: 'x'.repeat(20_000) }));
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: `q is too long: the request's URL may be at most ${MAX_TOOL_URL_LENGTH} characters` });
    // Within the URL's length, the route's own rule answers: q is at most 254 characters.
    expect(envelopeOf(await callTool(client, 'search_leads', { q: 'x'.repeat(255) })).details).toEqual([{ path: 'q', message: expect.stringContaining('254') }]);
  });
});

describe('MCP protocol answers', () => {
  it('tools/call with arguments that are not an object is JSON-RPC Invalid params (-32602), not Internal error', async () => {
    const { client } = await api.organization();
    const res = await rpc(client, { id: 4, method: 'tools/call', params: { name: 'lookup_caller', arguments: '+61412345001' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Invalid params: params.arguments must be an object of the tool’s arguments' } });
    const unnamed = await rpc(client, { id: 5, method: 'tools/call', params: { arguments: {} } });
    expect(unnamed.body.error).toEqual({ code: -32602, message: 'Invalid params: tools/call takes params: the tool’s name and its arguments' });
    const bare = await rpc(client, { id: 6, method: 'initialize' });
    expect(bare.body.error).toEqual({ code: -32602, message: 'Invalid params: initialize takes params: protocolVersion, capabilities and clientInfo' });
  });

  // JSON-RPC 2.0: -32602 is "Invalid method parameter(s)", where -32603 would be the server's own fault and -32700 JSON
  // that does not parse; MCP (Basic): "Error responses MUST include the same ID as the request they correspond to".
  it.each([
    ['tools/list whose cursor is not a string', 'tools/list', { cursor: 5 }, 'params.cursor is invalid: expected string, received number'],
    ['initialize with a client capability that is not an object', 'initialize', { protocolVersion: '2025-11-25', capabilities: { roots: 5 }, clientInfo: { name: 'curl', version: '8' } }, 'params.capabilities.roots is invalid: expected object, received number'],
    ['tools/call whose _meta.progressToken is neither a string nor a number', 'tools/call', { name: 'lookup_caller', arguments: { phone: '+61412345001' }, _meta: { progressToken: {} } }, 'params._meta.progressToken is invalid'],
    ['ping whose _meta is not an object', 'ping', { _meta: 'x' }, 'params._meta is invalid: expected object, received string'],
    // JSON-RPC allows params by position; MCP's methods take named params only, so an array is not read as an object.
    ['ping with params by position', 'ping', [1, 2], 'params must be an object of named parameters, not an array'],
    ['tools/list with an empty array of params', 'tools/list', [], 'params must be an object of named parameters, not an array'],
    ['tools/call with params by position', 'tools/call', ['lookup_caller', { phone: '+61412345001' }], 'params must be an object of named parameters, not an array'],
    ['initialize with an empty array of params', 'initialize', [], 'params must be an object of named parameters, not an array'],
  ])('%s is JSON-RPC Invalid params naming it, with the request’s id', async (_, method, params, message) => {
    const { client } = await api.organization();
    const res = await rpc(client, { id: 11, method, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 11, error: { code: -32602, message: `Invalid params: ${message}` } });
  });

  // Pagination, Error Handling: "Invalid cursors SHOULD result in an error with code -32602 (Invalid params)."
  it('answers tools/list with a cursor it never issued with Invalid params, not the first page again', async () => {
    const { client } = await api.organization();
    const first = await rpc(client, { id: 20, method: 'tools/list' });
    expect(first.body.result.tools).toHaveLength(CURATED_TOOLS.length);
    expect(first.body.result.nextCursor).toBeUndefined();
    const res = await rpc(client, { id: 21, method: 'tools/list', params: { cursor: 'not-a-cursor-this-server-issued' } });
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 21, error: { code: -32602, message: 'Invalid cursor: this server lists every tool on one page and issues no cursor' } });
  });

  // Transports: a notification the server cannot accept gets an HTTP error status, and "MAY comprise a JSON-RPC error
  // response that has no id" (an id of null is none of a notification's, nor any RequestId).
  it('refuses a notification whose params it cannot take with 400 and an error that has no id', async () => {
    const { client } = await api.organization();
    const res = await rpc(client, { method: 'notifications/initialized', params: { _meta: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' } });
    expect((await rpc(client, { method: 'notifications/initialized' })).status).toBe(202);
  });

  it('refuses a JSON-RPC response from the client as Invalid Request naming method: the server sends it no request to answer', async () => {
    const { client } = await api.organization();
    const res = await rpc(client, { id: 5, result: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Invalid Request: method is required' } });
  });
});

describe('a body that is not one JSON-RPC message', () => {
  // MCP (Basic): "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification". JSON-RPC
  // 2.0, 5.1: -32700 Parse error, "Invalid JSON was received by the server"; -32600 Invalid Request, "The JSON sent is
  // not a valid Request object"; the id is null when it cannot be read. MCP 2025-06-18 removed batching.
  const raw = (client: Client, body: string) => client.request('POST', '/mcp', { rawBody: body, headers: { 'content-type': 'application/json' } });

  it('answers JSON that does not parse with Parse error (-32700), not the API’s envelope', async () => {
    const { client } = await api.organization();
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":"ping"', '']) {
      const res = await raw(client, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } });
    }
  });

  it('answers a message nested deeper than 64 levels with Invalid Request (-32600), running none of it, and takes one of 64', async () => {
    const { client } = await api.organization();
    // The message is level 1, params 2, _meta 3; the arrays inside make up the rest.
    const ping = (arrays: number) => `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"x":${'['.repeat(arrays)}${']'.repeat(arrays)}}}}`;
    const deepCall = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"create_faq","arguments":{"question":"Deep?","answer":"No.","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`;
    for (const body of [ping(62), ping(10_000), deepCall]) {
      const res = await raw(client, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the message nests objects and arrays more than 64 levels deep' } });
    }
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(0);
    const deepest = await raw(client, ping(61));
    expect([deepest.status, deepest.body]).toEqual([200, { jsonrpc: '2.0', id: 7, result: {} }]);
  });

  it('counts nesting past a string holding an escaped quote or backslash, and none inside a string', async () => {
    const { client } = await api.organization();
    // A note before the arrays holds an escaped quote, or a backslash escaped before its closing quote.
    const ping = (note: string, arrays: number) => `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"note":"${note}","x":${'['.repeat(arrays)}${']'.repeat(arrays)}}}}`;
    for (const note of ['a\\"b', 'C:\\\\']) {
      const res = await raw(client, ping(note, 62));
      expect([res.status, res.body.error], note).toEqual([400, { code: -32600, message: 'Invalid Request: the message nests objects and arrays more than 64 levels deep' }]);
      expect((await raw(client, ping(note, 61))).body, note).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    }
    // Brackets in text are no nesting: an answer of 100 of them is an FAQ like any other.
    const brackets = `${'['.repeat(100)}${'{'.repeat(100)}`;
    const call = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"create_faq","arguments":{"question":"Brackets?","answer":"${brackets}"}}}`;
    const res = await raw(client, call);
    expect(res.status).toBe(200);
    expect(res.body.result.isError ?? false, JSON.stringify(res.body)).toBe(false);
    expect((await client.get('/v1/faqs')).body.faqs.map((faq: { answer: string }) => faq.answer)).toEqual([brackets]);
  });

  it('answers a batch with Invalid Request (-32600), running none of it', async () => {
    const { client } = await api.organization();
    const res = await raw(client, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_faq', arguments: { question: 'Batched?', answer: 'No.' } } }]));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a batch; post one JSON-RPC message per request' } });
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(0);
  });

  // MCP 2025-11-25 (Basic): "Unlike base JSON-RPC, the ID MUST NOT be null."
  it('answers a request whose id is null, or that is no object, with Invalid Request (-32600) and id null', async () => {
    const { client } = await api.organization();
    const nullId = await rpc(client, { id: null, method: 'ping' });
    expect(nullId.status).toBe(400);
    expect(nullId.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: id must be a string or an integer' } });
    const scalar = await raw(client, '"ping"');
    expect(scalar.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the body must be one JSON-RPC message, an object' } });
  });

  it('answers a message with a member JSON-RPC does not have with Invalid Request and its id, where the SDK would not read its id', async () => {
    const { client } = await api.organization();
    const res = await rpc(client, { id: 'ping-1', method: 'ping', extra: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 'ping-1', error: { code: -32600, message: 'Invalid Request: extra is not a known field' } });
  });
});

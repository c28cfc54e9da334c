import { ErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { routes } from '../resources';
import { CURATED_TOOLS, toolName } from './tools';
import { createApiKey } from '#shared/auth/api-keys';
import { scopeAllows } from '#shared/auth/scopes';
import { useTestApi } from '../../test/support/api';
import { mcpConnector } from '../../test/support/mcp-client';
import { requestWithHost } from '../../test/support/host-header';
import { startReceiver } from '../../test/support/receiver';

/** POST /mcp driven by the official MCP SDK client over Streamable HTTP, as Claude, Cursor or a voice platform would. */

const api = useTestApi({ events: true });
/** An MCP client connected (initialized) with this API key, to the tools a `?tools=` query names. */
const connect = mcpConnector(api);

/** The JSON a tool answered: its structured content, which must be its text too. */
function answerOf(answer: unknown): any {
  const result = answer as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const text = (result.content[0] as { text: string }).text;
  expect(result.structuredContent).toEqual(JSON.parse(text));
  return result.structuredContent;
}

/** The error envelope a failed tool carries as its text. */
function errorOf(answer: unknown): { status: number; code?: string; message: string } {
  const result = answer as CallToolResult;
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error;
}

const keyedRoutes = routes.filter((route) => route.auth !== 'none' && route.path !== '/mcp' && !route.sessionOnly);
const curatedNames = CURATED_TOOLS.map((tool) => tool.name);
/** The routes with a tool of their own under ?tools=all: one per PUT and its PATCH alias, none where a curated tool has the name. */
const toolRoutes = keyedRoutes.filter((route) => route.aliasOf === undefined && !curatedNames.includes(toolName(route.operationId)));
/** Every tool ?tools=all lists. */
const allToolNames = [...toolRoutes.map((route) => toolName(route.operationId)), ...curatedNames];

/** The POSTs that take away what exists: an upsert overwrites a lead's fields, a rotation revokes a secret or token. */
const DESTRUCTIVE_POSTS = ['upsert_lead', 'rotate_webhook_secret', 'rotate_inbound_endpoint'];

/** The routes that reach outside the API: an SMS to a phone, a POST to a webhook's URL (now, or queued). */
const OPEN_WORLD = ['send_sms', 'test_webhook', 'redeliver_event'];

describe('POST /mcp', () => {
  it('initializes on protocol revision 2025-11-25 and names itself', async () => {
    const { apiKey } = await api.organization();
    const client = await connect(apiKey);
    expect(client.getServerVersion()).toMatchObject({ name: 'sales-pipeline', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false } });
    expect(client.getInstructions()).toContain('lookup_caller');
  });

  it('agrees on 2025-06-18 with an older client, answers the latest revision to one it does not speak, and refuses a later message naming that one', async () => {
    const { apiKey } = await api.organization();
    const initialize = (protocolVersion: string) =>
      fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'curl', version: '8' } } }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    expect((await initialize('2025-06-18')).body.result.protocolVersion).toBe('2025-06-18');
    expect((await initialize('2024-11-05')).body.result.protocolVersion).toBe('2025-11-25');
    // Transports: a request naming a revision the server does not speak answers 400. Its error is that request's
    // answer, with its id (Basic); a notification's has no id, as RequestId is never null.
    const later = (message: Record<string, unknown>) =>
      fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'mcp-protocol-version': '2024-11-05' },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    const error = { code: -32000, message: 'Unsupported MCP-Protocol-Version 2024-11-05; this server speaks 2025-11-25, 2025-06-18' };
    for (const id of [2, 'list-2']) expect(await later({ id, method: 'tools/list' })).toEqual({ status: 400, body: { jsonrpc: '2.0', id, error } });
    expect(await later({ method: 'notifications/initialized' })).toEqual({ status: 400, body: { jsonrpc: '2.0', error } });
    // The header names the revision of the requests after initialize; initialize agrees on it in its body.
    const reinitialize = await later({ id: 3, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'curl', version: '8' } } });
    expect(reinitialize.status).toBe(200);
    expect(reinitialize.body).toMatchObject({ id: 3, result: { protocolVersion: '2025-11-25' } });
  });

  it('answers a JSON-RPC call from curl, which asks for JSON only', async () => {
    const { client } = await api.organization();
    const res = await client.post('/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/list' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7 });
    expect(res.body.result.tools.length).toBe(CURATED_TOOLS.length);
    const notification = await client.post('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).toBe(202);
  });

  it('sends the tool list gzipped to a client that accepts it, and small answers as they are', async () => {
    const { apiKey } = await api.organization();
    const post = (method: string, acceptEncoding: string) =>
      fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'accept-encoding': acceptEncoding },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
      });
    const gzipped = await post('tools/list', 'gzip, deflate');
    expect([gzipped.status, gzipped.headers.get('content-encoding'), gzipped.headers.get('vary')]).toEqual([200, 'gzip', 'Accept-Encoding']);
    const plain = await post('tools/list', 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const [unzipped, asIs] = [(await gzipped.json()) as any, (await plain.json()) as any];
    expect(unzipped).toEqual(asIs);
    expect(unzipped.result.tools.length).toBe(CURATED_TOOLS.length);
    const ping = await post('ping', 'gzip');
    expect([ping.headers.get('content-encoding'), await ping.json()]).toEqual([null, { jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('has no stream to open, and takes only an API key', async () => {
    const { apiKey } = await api.organization();
    const get = await fetch(`${api.url}/mcp`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const authorization of [undefined, `Bearer ${apiKey.slice(0, -1)}${apiKey.endsWith('A') ? 'B' : 'A'}`]) {
      const res = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: message });
      expect(res.status).toBe(401);
    }
  });

  it('refuses a browser page from another site with 403 before reading its message, against DNS rebinding', async () => {
    const { apiKey } = await api.organization();
    const post = (origin: string | undefined, body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) =>
      fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(origin === undefined ? {} : { origin }) },
        body,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    // Clients that are not browsers send no Origin; an inspector's page on the developer's own machine is theirs.
    for (const origin of [undefined, 'http://localhost:6274', 'http://127.0.0.1:6274', 'http://[::1]:6274', 'https://localhost']) {
      const answer = await post(origin);
      expect(answer.status, String(origin)).toBe(200);
      expect(answer.body.result.tools, String(origin)).toHaveLength(CURATED_TOOLS.length);
    }
    // A rebinding page keeps its own site as its origin; near misses of localhost are other sites too.
    const foreign = [
      'https://attacker.example',
      'http://localhost.attacker.example',
      'http://127.0.0.1.nip.io:6274',
      'http://localhost:6274/',
      'file://localhost',
      'null',
      '',
      'http://0.0.0.0:3000',
    ];
    for (const origin of foreign) {
      const answer = await post(origin);
      expect(answer.status, origin).toBe(403);
      expect(answer.body.error, origin).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED', message: `Origin ${JSON.stringify(origin)} may not call /mcp: only clients that send no Origin, or pages on localhost` });
    }
    // Refused before the body is read: a message that is not JSON gets the same 403, not a 400.
    expect((await post('https://attacker.example', '{not json')).status).toBe(403);
    expect((await post(undefined, '{not json')).status).toBe(400);
  });

  it('lists with ?tools=all every keyed route as a tool named by its operationId in snake_case, with valid JSON Schemas and hints from its method and what it does', async () => {
    const { apiKey } = await api.organization();
    const { tools } = await (await connect(apiKey, '?tools=all')).listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(tools.map((tool) => tool.name).sort()).toEqual([...allToolNames].sort());
    const ajv = addFormats(new Ajv2020({ strict: false }));
    for (const tool of tools) {
      expect(tool.name, tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      if (tool.outputSchema) expect(() => ajv.compile(tool.outputSchema!), tool.name).not.toThrow();
    }
    for (const route of keyedRoutes.filter((each) => each.aliasOf === undefined)) {
      const name = toolName(route.operationId);
      const tool = byName.get(name)!;
      expect(tool.description, name).toContain(route.summary);
      const destructive = route.method === 'POST' ? DESTRUCTIVE_POSTS.includes(name) : route.method !== 'GET';
      expect(tool.annotations, name).toMatchObject({ readOnlyHint: route.method === 'GET', destructiveHint: destructive, idempotentHint: route.method !== 'POST', openWorldHint: OPEN_WORLD.includes(name) });
      expect('idempotencyKey' in (tool.inputSchema.properties ?? {}), route.operationId).toBe(route.method === 'POST');
    }
    const getLead = byName.get('get_lead') as Tool;
    expect(getLead.inputSchema).toMatchObject({ required: ['leadId'], properties: { leadId: { type: 'string' } } });
    expect(getLead.outputSchema).toMatchObject({ type: 'object' });
  });

  // ToolAnnotations: destructiveHint "If true, the tool may perform destructive updates to its environment. If false,
  // the tool performs only additive updates"; openWorldHint "If true, this tool may interact with an “open world” of
  // external entities". Clients decide from them what to confirm with the user.
  it('calls no tool that overwrites, clears, cancels or revokes “only additive”, and marks those that reach a phone or a webhook URL open-world', async () => {
    const { apiKey } = await api.organization();
    const { tools } = await (await connect(apiKey, '?tools=all')).listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // Each tool's own description says what it takes away.
    const takesAway = {
      rotate_inbound_endpoint: 'the old token and secret stop working at once',
      rotate_webhook_secret: 'Rotate a webhook’s signing secret',
      upsert_lead: 'as a PATCH would apply them',
      update_appointment: 'Reschedule, change or cancel an appointment',
      update_lead: '`null` clears an optional field',
      update_organization_member: 'isDisabled',
      delete_lead: 'Delete a lead',
    };
    for (const [name, why] of Object.entries(takesAway)) {
      expect(byName.get(name)!.description, name).toContain(why);
      expect(byName.get(name)!.annotations?.destructiveHint, `${name}: ${why}`).toBe(true);
    }
    // A curated tool holds what its route does: a hold and a booking only add; an SMS reaches the lead's phone.
    const hints = (name: string) => ({ destructiveHint: byName.get(name)!.annotations?.destructiveHint, openWorldHint: byName.get(name)!.annotations?.openWorldHint });
    expect(hints('hold_slot')).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(hints('book_appointment')).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(hints('send_sms')).toEqual({ destructiveHint: false, openWorldHint: true });
    expect(tools.filter((tool) => tool.annotations?.openWorldHint).map((tool) => tool.name).sort()).toEqual([...OPEN_WORLD].sort());
  });

  it('narrows tools/list to the curated tools with ?tools=curated', async () => {
    const { apiKey } = await api.organization();
    const { tools } = await (await connect(apiKey, '?tools=curated')).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(curatedNames);
    const other = await fetch(`${api.url}/mcp?tools=some`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(other.status).toBe(400);
  });

  it('reads through a tool what the REST route answers, as the same key', async () => {
    const { apiKey, client } = await api.organization();
    await client.patch('/v1/organization', { timezone: 'Australia/Sydney' });
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com', phone: '+61412345001' })).body.lead;
    const mcp = await connect(apiKey);
    expect(answerOf(await mcp.callTool({ name: 'get_lead', arguments: { leadId: lead.id } }))).toEqual((await client.get(`/v1/leads/${lead.id}`)).body);
    const found = answerOf(await mcp.callTool({ name: 'search_leads', arguments: { phone: '0412 345 001' } }));
    expect(found.leads.map((each: { id: string }) => each.id)).toEqual([lead.id]);
    const caller = answerOf(await mcp.callTool({ name: 'lookup_caller', arguments: { phone: '+61412345001' } }));
    expect(caller.caller.lead.id).toBe(lead.id);
  });

  it('writes through a tool once per idempotency key', async () => {
    const { apiKey, client } = await api.organization();
    const mcp = await connect(apiKey);
    const create = () => mcp.callTool({ name: 'create_lead', arguments: { name: 'Sam Lee', email: 'sam@example.com', idempotencyKey: 'call-42-lead' } });
    const first = answerOf(await create());
    const again = answerOf(await create());
    expect(again.lead.id).toBe(first.lead.id);
    expect((await client.get('/v1/leads')).body.leads.map((lead: { id: string }) => lead.id)).toEqual([first.lead.id]);
    // The audit log names the key, and that it came through MCP.
    await api.eventsCaughtUp();
    const { entries } = (await client.get(`/v1/audit-log?resourceType=lead&resourceId=${first.lead.id}`)).body;
    expect(entries).toEqual([expect.objectContaining({ resourceId: first.lead.id, action: 'created', method: 'POST', path: '/v1/leads', via: 'mcp' })]);
  });

  it('takes no Idempotency-Key of its own, and refuses one rather than run a retry twice: a tool takes idempotencyKey', async () => {
    const { client } = await api.organization();
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_lead', arguments: { name: 'Sam Lee', email: 'sam@example.com' } } };
    const refused = await client.post('/mcp', call, { headers: { 'Idempotency-Key': 'call-42-lead' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'Idempotency-Key', message: 'POST /mcp takes no Idempotency-Key header' }]);
    expect((await client.get('/v1/leads')).body.leads).toEqual([]);
    const taken = await client.post('/mcp', call);
    expect(taken.status).toBe(200);
    expect(JSON.parse(taken.body.result.content[0].text).lead).toMatchObject({ firstName: 'Sam', lastName: 'Lee' });
  });

  it('answers another organization’s record as not found, and a bad argument as the API’s 400, as isError results', async () => {
    const a = await api.organization();
    const b = await api.organization();
    const lead = (await a.client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com' })).body.lead;
    const mcp = await connect(b.apiKey);
    expect(errorOf(await mcp.callTool({ name: 'get_lead', arguments: { leadId: lead.id } }))).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Lead not found' });
    expect(errorOf(await mcp.callTool({ name: 'update_lead', arguments: { leadId: lead.id, status: 'WON' } }))).toMatchObject({ status: 404 });
    expect(errorOf(await mcp.callTool({ name: 'create_lead', arguments: { email: 'not an email' } }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(errorOf(await mcp.callTool({ name: 'get_lead', arguments: { leadId: lead.id, extra: 1 } }))).toMatchObject({ status: 400, message: 'extra is not an argument of get_lead', details: [{ path: 'extra', message: 'extra is not an argument of get_lead' }] });
    expect((await a.client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe(lead.status);
  });

  // Tools, Error Handling: unknown tools are a protocol error, e.g. {"code": -32602, "message": "Unknown tool: invalid_tool_name"}.
  it('answers a tool it does not have with JSON-RPC Invalid params (-32602) and the request’s id, not a tool result', async () => {
    const { apiKey, client } = await api.organization();
    const res = await client.post('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'invalid_tool_name', arguments: {} } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Unknown tool: invalid_tool_name' } });
    // So the SDK client's callTool rejects, rather than resolving with a result the agent might read as the tool's.
    const mcp = await connect(apiKey);
    await expect(mcp.callTool({ name: 'invalid_tool_name', arguments: {} })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('shows a read key only the GET tools and refuses it the others, and a write key every tool but the DELETEs', async () => {
    const { organizationId, client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com' })).body.lead;
    for (const scope of ['read', 'write'] as const) {
      const { token } = await createApiKey(organizationId, null, `${scope} agent`, scope);
      const mcp = await connect(token, '?tools=all');
      const listed = (await mcp.listTools()).tools.map((tool) => tool.name);
      expect(listed.sort()).toEqual([...toolRoutes.filter((route) => scopeAllows(scope, route.method)).map((route) => toolName(route.operationId)), ...CURATED_TOOLS.filter((tool) => scopeAllows(scope, keyedRoutes.find((route) => route.operationId === tool.operationId)!.method)).map((tool) => tool.name)].sort());
      expect(answerOf(await mcp.callTool({ name: 'get_lead', arguments: { leadId: lead.id } })).lead.id).toBe(lead.id);
    }
    const reader = await connect((await createApiKey(organizationId, null, 'reader', 'read')).token);
    expect(errorOf(await reader.callTool({ name: 'update_lead', arguments: { leadId: lead.id, status: 'WON' } }))).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(errorOf(await reader.callTool({ name: 'hold_slot', arguments: { serviceId: 1, startsAt: '2027-01-04T09:00:00+11:00' } }))).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    const writer = await connect((await createApiKey(organizationId, null, 'writer', 'write')).token);
    expect(errorOf(await writer.callTool({ name: 'delete_lead', arguments: { leadId: lead.id } }))).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(answerOf(await writer.callTool({ name: 'update_lead', arguments: { leadId: lead.id, status: 'CONTACTED' } })).lead.status).toBe('CONTACTED');
    // Nothing the refused calls asked for happened.
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('CONTACTED');
  });

  it('books a visit during a call with the curated tools: availability, a hold, the booking, and the call logged', async () => {
    const { apiKey, client } = await api.organization();
    const day = [{ open: '08:00', close: '17:00' }];
    await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day } });
    await client.post('/v1/organization/members', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const service = (await client.post('/v1/services', { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: [], duration: 60, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' })).body.service;
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412345001' })).body.lead;
    const mcp = await connect(apiKey, '?tools=curated');
    // A Monday in Sydney: 08:00 to 17:00, an hour's visit starting every 15 minutes from 08:00 to 16:00.
    const monday = { from: '2027-01-04T00:00:00+11:00', to: '2027-01-05T00:00:00+11:00' };
    const { slots } = answerOf(await mcp.callTool({ name: 'find_availability', arguments: { serviceId: service.id, ...monday } }));
    expect(slots).toHaveLength(33);
    expect(slots).toEqual((await client.get(`/v1/availability?serviceId=${service.id}&from=${encodeURIComponent(monday.from)}&to=${encodeURIComponent(monday.to)}`)).body.slots);
    const { hold } = answerOf(await mcp.callTool({ name: 'hold_slot', arguments: { serviceId: service.id, startsAt: slots[0].startsAt, leadId: lead.id } }));
    const { appointment } = answerOf(await mcp.callTool({ name: 'book_appointment', arguments: { leadId: lead.id, holdId: hold.id, idempotencyKey: `book-${hold.id}` } }));
    expect(appointment).toMatchObject({ leadId: lead.id, title: 'Blocked drain clearing', startsAt: slots[0].startsAt });
    const logged = answerOf(await mcp.callTool({ name: 'log_call', arguments: { phone: '+61412345001', summary: 'Booked a drain clearing.', keyPoints: ['Blocked kitchen drain'] } }));
    expect(logged.inquiry).toMatchObject({ source: 'CALL', leadId: lead.id });
  });
});

describe('where a tool call goes', () => {
  it('calls the API itself, whatever Host the /mcp request named: never a service on the machine, DynamoDB Local, nor the metadata address', async () => {
    const { organizationId, client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com' })).body.lead;
    const reader = (await createApiKey(organizationId, null, 'reader', 'read')).token;
    // Another service on this machine, which records what reaches it (and would see the caller's key).
    const receiver = await startReceiver();
    try {
      const hosts = [new URL(receiver.url).host, new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).host, '169.254.169.254', 'localhost.attacker.example:3000'];
      for (const [id, host] of hosts.entries()) {
        const answer = await requestWithHost(`${api.url}/mcp`, host, {
          method: 'POST',
          headers: { authorization: `Bearer ${reader}` },
          body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_lead', arguments: { leadId: lead.id } } },
        });
        expect(answer.status, host).toBe(200);
        const read = (await client.get(`/v1/leads/${lead.id}`)).body;
        expect(answer.body, host).toEqual({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(read) }], structuredContent: read } });
      }
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

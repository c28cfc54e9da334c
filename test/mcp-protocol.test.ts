import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../shared/auth/api-keys';
import { toolsFromDocument } from '../functions/mcp/document-tools';
import type { McpCaller, McpReply } from '../functions/mcp/server';
import { McpMessage } from '../functions/mcp/schema';
import { answerMcpWithSdk } from './support/mcp-sdk-server';
import { useTestApi } from './support/api';

/**
 * POST /mcp answers the protocol itself (functions/mcp/server.ts); it answered through the MCP SDK's server before.
 * Every message here is posted to the API and handed to the SDK's server as the route passes it on (its body as the
 * route's schema reads it), with the same tools, key and headers, and the two answers must be the same: the same
 * status, and the same result or the same JSON-RPC error. A message the protocol's schemas refuse is refused with the
 * same code, naming the field the SDK's error names (the SDK words it as zod does).
 */

const api = useTestApi();
const tools = toolsFromDocument();
let full: { apiKey: string };
let reader: string;

beforeAll(async () => {
  const { apiKey, organizationId, client } = await api.organization();
  full = { apiKey };
  reader = (await createApiKey(organizationId, null, 'reader', 'read')).token;
  await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com', phone: '+61412345001' });
});

const clientInfo = { name: 'conformance', version: '1.0.0' };
const initialize = (params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo, ...params } });
const request = (method: string, params?: unknown, id: string | number = 2) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

interface CaseOptions {
  headers?: Record<string, string>;
  key?: 'reader';
  toolset?: McpCaller['toolset'];
}

type Case = [name: string, message: Record<string, unknown>, options?: CaseOptions];

const CASES: Case[] = [
  ['initialize on 2025-11-25', initialize({})],
  ['initialize on 2025-06-18', initialize({ protocolVersion: '2025-06-18' })],
  ['initialize asking for a revision the server does not speak', initialize({ protocolVersion: '2024-11-05' })],
  ['initialize naming no revision', { ...initialize({}), params: { capabilities: {}, clientInfo } }],
  ['initialize with every capability a client declares', initialize({ capabilities: { sampling: { tools: {} }, elicitation: { form: { applyDefaults: true } }, roots: { listChanged: true }, tasks: { list: {}, requests: { elicitation: { create: {} } } }, experimental: { x: {} } }, clientInfo: { ...clientInfo, title: 'T', icons: [{ src: 'https://example.com/i.png', theme: 'dark', sizes: ['48x48'] }], websiteUrl: 'https://example.com' } })],
  ['initialize with a string id', { ...initialize({}), id: 'init-1' }],
  ['initialize without params', request('initialize', undefined, 1)],
  ['initialize without capabilities', { ...initialize({}), params: { protocolVersion: '2025-11-25', clientInfo } }],
  ['initialize with capabilities that are a list', initialize({ capabilities: [] })],
  ['initialize with roots.listChanged not a boolean', initialize({ capabilities: { roots: { listChanged: 'yes' } } })],
  ['initialize with an experimental capability that is not an object', initialize({ capabilities: { experimental: { x: 1 } } })],
  ['initialize with elicitation.form.applyDefaults not a boolean', initialize({ capabilities: { elicitation: { form: { applyDefaults: 1 } } } })],
  ['initialize without clientInfo', { ...initialize({}), params: { protocolVersion: '2025-11-25', capabilities: {} } }],
  ['initialize with a clientInfo name that is a number', initialize({ clientInfo: { name: 1, version: '1' } })],
  ['initialize with an icon of an unknown theme', initialize({ clientInfo: { ...clientInfo, icons: [{ src: 'x', theme: 'blue' }] } })],
  ['ping', request('ping')],
  ['ping with a progress token', request('ping', { _meta: { progressToken: 'p-1' } })],
  ['ping with a progress token that is an object', request('ping', { _meta: { progressToken: {} } })],
  ['ping with a related task without an id', request('ping', { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 3 } } })],
  ['ping asking to run as a task', request('ping', { task: {} })],
  ['tools/list', request('tools/list')],
  ['tools/list with a cursor', request('tools/list', { cursor: 'next' })],
  ['tools/list with a cursor that is a number', request('tools/list', { cursor: 5 })],
  ['tools/list with params that are a list', request('tools/list', [])],
  ['tools/list asking to run as a task', request('tools/list', { task: { ttl: 60_000 } })],
  ['tools/list for a read key', request('tools/list'), { key: 'reader' }],
  ['tools/list of the curated tools', request('tools/list'), { toolset: 'curated' }],
  ['tools/call reading leads', request('tools/call', { name: 'listLeads', arguments: { limit: 5 } })],
  ['tools/call of a curated tool', request('tools/call', { name: 'search_leads', arguments: { phone: '0412 345 001' } })],
  ['tools/call with an argument the route rejects', request('tools/call', { name: 'listLeads', arguments: { limit: 0 } })],
  ['tools/call without arguments', request('tools/call', { name: 'listLeads' })],
  ['tools/call of an unknown tool', request('tools/call', { name: 'noSuchTool', arguments: {} })],
  ['tools/call with an unknown argument', request('tools/call', { name: 'listLeads', arguments: { bogus: 1 } })],
  ['tools/call of a write tool with a read key', request('tools/call', { name: 'createLead', arguments: { name: 'Sam Lee' } }), { key: 'reader' }],
  ['tools/call without a name', request('tools/call', { arguments: {} })],
  ['tools/call with a name that is a number', request('tools/call', { name: 5 })],
  ['tools/call without params', request('tools/call')],
  ['tools/call with arguments that are a list', request('tools/call', { name: 'listLeads', arguments: [1] })],
  ['tools/call with null arguments', request('tools/call', { name: 'listLeads', arguments: null })],
  ['tools/call asking to run as a task', request('tools/call', { name: 'listLeads', arguments: {}, task: { ttl: 60_000 } })],
  ['tools/call with a task that is malformed', request('tools/call', { name: 'listLeads', task: { ttl: 'soon' } })],
  ['a method the server does not have', request('resources/list')],
  ['logging/setLevel, a capability the server does not declare', request('logging/setLevel', { level: 'info' })],
  ['a notification sent as a request', request('notifications/initialized')],
  ['a method named like an object property', request('constructor')],
  ['a message with a field JSON-RPC does not have', { ...request('ping'), extra: 1 }],
  ['notifications/initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['an unknown notification', { jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } }],
  ['a notification with params that are a list', { jsonrpc: '2.0', method: 'notifications/initialized', params: [] }],
  ['a request on a revision it speaks', request('ping'), { headers: { 'mcp-protocol-version': '2025-06-18' } }],
  ['a request on a revision it does not speak', request('ping'), { headers: { 'mcp-protocol-version': '2025-03-26' } }],
];

/** The path a zod error names first, as `params.capabilities.roots`. */
function zodPath(message: string): string | undefined {
  try {
    return ((JSON.parse(message) as { path: (string | number)[] }[])[0]?.path ?? []).join('.');
  } catch {
    return undefined;
  }
}

describe('POST /mcp answers as the MCP SDK’s server does', () => {
  it.each(CASES)('%s', async (_, message, options?: CaseOptions) => {
    const { headers = {}, key, toolset = 'all' } = options ?? {};
    const token = key === 'reader' ? reader : full.apiKey;
    const res = await fetch(`${api.url}/mcp${toolset === 'curated' ? '?tools=curated' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(message),
    });
    const text = await res.text();
    const ours: McpReply = { status: res.status as McpReply['status'], ...(text ? { body: JSON.parse(text) as Record<string, unknown> } : {}) };
    const caller: McpCaller = { authorization: `Bearer ${token}`, baseUrl: api.url, scope: key === 'reader' ? 'read' : 'full', toolset };
    const sdk = await answerMcpWithSdk(v.parse(McpMessage, message), headers, async () => tools, caller);
    const sdkError = sdk.body?.error as { code: number; message: string } | undefined;
    const path = sdkError && zodPath(sdkError.message);
    if (!sdkError || path === undefined) {
      expect(ours).toEqual(sdk);
      return;
    }
    // Refused by the protocol's schemas: the same code, naming the same field.
    const ourError = ours.body?.error as { code: number; message: string };
    expect({ ...ours, body: { ...ours.body, error: undefined } }).toEqual({ ...sdk, body: { ...sdk.body, error: undefined } });
    expect(ourError.code).toBe(sdkError.code);
    expect(ourError.message.startsWith(`${path}:`), `${ourError.message} names ${path}`).toBe(true);
  });
});

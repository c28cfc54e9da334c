import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { errorEnvelope } from '#shared/http/envelope';
import { ValidationError } from '#shared/errors';
import { validationDetails } from '#shared/validation';
import type { ApiKeyScope } from '#shared/auth/scopes';
import type { MemberRole } from '#shared/member-roles';
import { refusalOf } from '../authority';
import { VIA_HEADER } from '#shared/audit/entry';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '#shared/json-depth';
import { requestOf, type ApiTool } from './tools';
import * as v from 'valibot';
import { McpMessage, McpParams, PROTOCOL_VERSIONS, type Toolset } from './schema';
import { prose } from '#shared/prose';

/** Who is calling `/mcp`, and where the API it calls on their behalf is. */
export interface McpCaller {
  /** The caller's own `Authorization` header: every tool call is a request of the API with the same key. */
  authorization: string;
  /** The API's base URL (shared/http/base-url.ts: configured, or the local server's own address), never one the request named. */
  baseUrl: string;
  scope: ApiKeyScope;
  /** The role of the member the credential acts for, now (null: the organization's own key): no tool above it is offered or called. */
  role: MemberRole | null;
  /** The toolsets `?tools=` named: `tools/list` offers theirs. */
  toolsets: readonly Toolset[];
  /** Told when the API refuses the caller's credential itself (401): its grant or key revoked, its token expired. */
  onCredentialRefused?: () => void;
}

/** Every tool; read only by the requests that list or call them. */
export type ToolSource = () => Promise<readonly ApiTool[]>;

export const SERVER_INFO = { name: 'sales-pipeline', title: 'Sales Pipeline API', version: '1.0.0' };
export const INSTRUCTIONS = prose`
  Tools of a sales pipeline for trades businesses. On a live call: lookup_caller with the caller id (save_caller
  with their name when it finds no lead), get_receptionist_context once, find_availability then hold_slot and
  book_appointment to book a visit, resolve_transfer to hand the call over, and log_call when it ends (the live_call
  prompt says it in full; receptionist://context is the context as a resource). With ?tools=all on the URL, or a
  resource’s name (?tools=curated,leads), every route of the REST API is a tool too.
`;
export const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } };

/** The receptionist's context as a resource: what GET /v1/receptionist/context answers the caller's key. */
export const CONTEXT_RESOURCE = {
  uri: 'receptionist://context',
  name: 'receptionist_context',
  title: 'What the receptionist may say',
  description: 'The business, its hours, and its active services, products, FAQs, policies, scenarios and transfer rules (GET /v1/receptionist/context), for the organization of the API key.',
  mimeType: 'application/json',
};

/** The live-call flow as a prompt: the curated tools in the order a call uses them. */
export const LIVE_CALL_PROMPT = {
  name: 'live_call',
  title: 'Answer a live call',
  description: 'How a voice receptionist handles a call with the curated tools, from the caller id to the call logged.',
  arguments: [{ name: 'phone', description: 'The caller id, as the phone platform gives it.', required: false }],
};

/** The steps of a live call, naming the curated tools (`?tools=curated`, the default) in the order a call uses them. */
export const liveCallFlow = (phone?: string) =>
  [
    `You are the receptionist of a trades business, on a live phone call${phone ? ` from ${phone}` : ''}. Use these tools:`,
    `1. lookup_caller with the caller id${phone ? ` (${phone})` : ''}: the lead, their latest inquiries and upcoming appointments, and whether the business is open now. Calling from another number? search_leads by their name or email.`,
    '2. get_receptionist_context once (or read the receptionist://context resource): services, prices, FAQs, policies and transfer rules. Say only what it holds.',
    '3. save_caller with the phone and the name the caller gives, when lookup_caller found no lead and they want a booking or a call back.',
    '4. To book a visit: find_availability for the service, offer two or three slots, hold_slot the one chosen, then book_appointment with the lead and the hold.',
    '5. To hand the call over: resolve_transfer with the rule, the caller’s name, the topic and a summary.',
    '6. send_sms to confirm a booking, unless the lead opted out.',
    '7. When the call ends: log_call with the phone and a summary (add key points, the transcript and the times if you have them).',
  ].join('\n');

/** A tool as `tools/list` describes it. */
export const asTool = (tool: ApiTool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  annotations: tool.annotations,
});

/** The tools the caller's toolset offers and its authority allows, decided as their routes are (functions/authority.ts). */
export const offeredTools = (tools: readonly ApiTool[], caller: McpCaller): ApiTool[] =>
  tools.filter((tool) => refusalOf(caller, tool.method, tool.path) === undefined && (caller.toolsets.includes('all') || caller.toolsets.includes(tool.toolset as Toolset)));

/** A tool by its name (the last of that name, as a map keeps it). */
export const toolNamed = (tools: readonly ApiTool[], name: string): ApiTool | undefined => new Map(tools.map((tool) => [tool.name, tool])).get(name);

/** The result of `tools/call`. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

export const toolFailure = (text: string): ToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** A JSON-RPC error thrown by a handler: the SDK answers its code and message as they are (McpError prefixes "MCP error <code>: "). */
const protocolError = (code: ErrorCode, message: string) => Object.assign(new Error(message), { code });

/** Calls the tool's route of the API as the caller, and answers the result: the body as structured content and as text. */
export async function callTool(tool: ApiTool, args: Record<string, unknown>, caller: McpCaller): Promise<ToolResult> {
  const refusal = refusalOf(caller, tool.method, tool.path);
  if (refusal) {
    // The gateway's own words and code for the same refusal of the tool's route.
    const why = refusal === 'SCOPE' ? `A ${caller.scope} key` : `A ${caller.role}`;
    return toolFailure(JSON.stringify(errorEnvelope(403, `${why} may not call ${tool.name} (${tool.method} ${tool.path})`, 'INSUFFICIENT_SCOPE')));
  }
  const request = requestOf(tool, args);
  if (request.refused.length) {
    // The envelope the route itself answers to arguments it refuses: the first named in the message, all in details.
    const refusal = new ValidationError(request.refused);
    return toolFailure(JSON.stringify(errorEnvelope(refusal.status, refusal.message, refusal.code, refusal.details)));
  }
  const response = await fetch(`${caller.baseUrl}${request.pathAndQuery}`, {
    method: tool.method,
    headers: {
      authorization: caller.authorization,
      accept: 'application/json',
      // The audit log's `via`: a label, never a credential (the key is what is attributed).
      [VIA_HEADER]: 'mcp',
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
    },
    body: request.body,
    // The API redirects no keyed request; were one redirected, the key is not sent on to wherever it points (a failure).
    redirect: 'manual',
  });
  const text = await response.text();
  if (response.status === 401) caller.onCredentialRefused?.();
  // The API's answer is the tool's: an error's envelope as text (structured content would have to match the output schema).
  if (!response.ok) return toolFailure(text);
  const structured = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  return { content: [{ type: 'text', text: text || '{}' }], ...(tool.outputSchema ? { structuredContent: structured } : {}) };
}

/** The revision an `initialize` agrees on: the one asked for if the server speaks it, else the latest, as the protocol says. */
export const agreedRevision = (requested: unknown): string =>
  (PROTOCOL_VERSIONS as readonly unknown[]).includes(requested) ? (requested as string) : PROTOCOL_VERSIONS[0];

/** What `POST /mcp` answers: 202 and nothing to a notification, else a JSON-RPC answer. */
export interface McpReply {
  status: 200 | 202 | 400 | 401;
  body?: Record<string, unknown>;
}

/**
 * The answer to a message naming, in MCP-Protocol-Version, a revision the server does not speak: 400, as the transport
 * requires, with the JSON-RPC error of the request it answers (its id), or of a notification (no id: never null, which
 * no revision's RequestId allows). An `initialize` is not refused for it: the header belongs to the requests after it,
 * and the revision is agreed in its body.
 */
export function refusedRevision(headers: Record<string, string>, message: Record<string, unknown>): McpReply | undefined {
  const requested = headers['mcp-protocol-version'];
  if (requested === undefined || message.method === 'initialize' || (PROTOCOL_VERSIONS as readonly string[]).includes(requested)) return undefined;
  const error = { code: -32000, message: `Unsupported MCP-Protocol-Version ${requested}; this server speaks ${PROTOCOL_VERSIONS.join(', ')}` };
  return { status: 400, body: { jsonrpc: '2.0', ...(message.id === undefined ? {} : { id: message.id }), error } };
}

/** The SDK's schema of a request, as far as the check reads it. */
interface RequestSchema {
  safeParse(input: unknown): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * The requests the server answers, as the SDK reads them. Params one of them does not satisfy (a cursor that is no
 * string, a capability that is no object, `_meta` or its progressToken of another type) the SDK's transport refuses as
 * no JSON-RPC message at all (400, Parse error) or its handler as its own fault (Internal error, the schema's dump).
 */
const REQUESTS = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
  ['prompts/list', ListPromptsRequestSchema],
  ['prompts/get', GetPromptRequestSchema],
]);

/** The first thing wrong in a request's params: the project's own words for the common mistakes, else the SDK's schema's, by path. */
function paramsFault(method: string, params: unknown): string | undefined {
  // JSON-RPC allows params by position, and the message schema with it (valibot's objects take arrays); MCP names every one.
  if (REQUESTS.has(method) && Array.isArray(params)) return 'params must be an object of named parameters, not an array';
  const own = McpParams.get(method);
  const checked = own && v.safeParse(own, params);
  if (checked && !checked.success) return checked.issues[0].message;
  const parsed = REQUESTS.get(method)?.safeParse({ method, params });
  if (!parsed || parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  const detail = issue!.message.replace(/^Invalid input:?\s*/, '');
  return `${issue!.path.map(String).join('.') || 'params'} ${detail ? `is invalid: ${detail}` : 'is invalid'}`;
}

/** A request whose params its method cannot take: JSON-RPC's Invalid params with the request's id, naming the first thing wrong. */
function invalidParams(message: Record<string, unknown>): McpReply | undefined {
  const fault = typeof message.method === 'string' && message.id !== undefined ? paramsFault(message.method, message.params) : undefined;
  if (fault === undefined) return undefined;
  return { status: 200, body: { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${fault}` } } };
}

/** The server validates JSON Schema only for elicitation, which it never asks for: its validator refuses (and ajv stays out of the bundle). */
const NO_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'This server validates no JSON Schema' }),
};

/** An MCP server for one request: the tools the caller's scope and toolset allow, each calling the API as the caller. */
function serverFor(tools: ToolSource, caller: McpCaller): Server {
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_SCHEMA_VALIDATION });
  server.setRequestHandler(ListToolsRequestSchema, async ({ params }) => {
    // Every tool is on one page and no nextCursor is answered, so no cursor is one the server issued (Pagination: -32602).
    if (params?.cursor !== undefined) throw protocolError(ErrorCode.InvalidParams, 'Invalid cursor: this server lists every tool on one page and issues no cursor');
    return { tools: offeredTools(await tools(), caller).map((tool) => asTool(tool) as Tool) };
  });
  server.setRequestHandler(CallToolRequestSchema, async ({ params: { name, arguments: args } }) => {
    const tool = toolNamed(await tools(), name);
    // The protocol's own error, not a tool's failure: the client asked for something the server does not have.
    if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return callTool(tool, args ?? {}, caller);
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [CONTEXT_RESOURCE] }));
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params: { uri } }) => {
    // Resources: "Resource not found" is -32002, with the uri.
    if (uri !== CONTEXT_RESOURCE.uri) throw Object.assign(protocolError(-32002 as ErrorCode, `Resource not found: ${uri}`), { data: { uri } });
    const tool = toolNamed(await tools(), 'get_receptionist_context')!;
    const result = await callTool(tool, {}, caller);
    if (result.isError) throw protocolError(ErrorCode.InternalError, `The context could not be read: ${result.content[0]!.text}`);
    return { contents: [{ uri, mimeType: CONTEXT_RESOURCE.mimeType, text: result.content[0]!.text }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [LIVE_CALL_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, ({ params: { name, arguments: args } }) => {
    if (name !== LIVE_CALL_PROMPT.name) throw protocolError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return { description: LIVE_CALL_PROMPT.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: liveCallFlow(args?.phone) } }] };
  });
  return server;
}

/** JSON-RPC's error for a body that is no message the server can take: 400, with the id if one could be read, else null. */
const unreadable = (code: ErrorCode, message: string, id: unknown = null): McpReply => ({ status: 400, body: { jsonrpc: '2.0', id, error: { code, message } } });

/**
 * The one JSON-RPC message a POST carries, or JSON-RPC's error for a body that is none: Parse error (-32700) for text
 * that is not JSON; Invalid Request (-32600) for a message nested deeper than MAX_JSON_DEPTH, a batch (MCP removed
 * batching in 2025-06-18) or an object that is no request or notification (an id null, which MCP forbids; no method;
 * a member JSON-RPC does not have).
 */
export function readMessage(text: string | null): { message: Record<string, unknown> } | { refusal: McpReply } {
  // Read before parsing: the message is serialized again for the SDK, which a value nested thousands deep overflows.
  if (text && nestsDeeperThan(text)) return { refusal: unreadable(ErrorCode.InvalidRequest, `Invalid Request: the message nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '');
  } catch {
    return { refusal: unreadable(ErrorCode.ParseError, 'Parse error: the body is not JSON') };
  }
  if (Array.isArray(parsed)) return { refusal: unreadable(ErrorCode.InvalidRequest, 'Invalid Request: a batch; post one JSON-RPC message per request') };
  const checked = v.safeParse(McpMessage, parsed);
  if (checked.success) return { message: checked.output };
  const id = (parsed as { id?: unknown } | null)?.id;
  const readable = id !== undefined && v.is(McpMessage.entries.id, id);
  return { refusal: unreadable(ErrorCode.InvalidRequest, `Invalid Request: ${validationDetails(checked.issues, 'body')[0]!.message}`, readable ? id : null) };
}

/**
 * Answers one HTTP request of MCP's Streamable HTTP transport through the protocol's SDK, statelessly: a server and a
 * transport made for it, answering JSON. An `initialize` asking for a revision the server does not speak is answered
 * with the latest, as the protocol says; a later request naming such a revision in MCP-Protocol-Version is refused.
 */
export async function answerMcp(text: string | null, headers: Record<string, string>, tools: ToolSource, caller: McpCaller): Promise<McpReply> {
  const read = readMessage(text);
  if ('refusal' in read) return read.refusal;
  const { message } = read;
  const refused = refusedRevision(headers, message) ?? invalidParams(message);
  if (refused) return refused;
  const params = message.params as Record<string, unknown> | undefined;
  const body = message.method === 'initialize' && params ? { ...message, params: { ...params, protocolVersion: agreedRevision(params.protocolVersion) } } : message;
  // The body is sent again as text of its own length.
  const { 'content-length': _length, 'transfer-encoding': _encoding, ...forwarded } = headers;
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  let credentialRefused = false;
  const server = serverFor(tools, { ...caller, onCredentialRefused: () => void (credentialRefused = true) });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(
      new Request('http://mcp.local/mcp', {
        method: 'POST',
        // The answer is always JSON: a client that asks only for JSON (curl) is answered as one that takes a stream too.
        headers: { ...forwarded, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    const answer = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    // A notification the SDK refuses gets its error with `id: null`; the transport's refusal of one has no id at all.
    if (answer && message.id === undefined && answer.id === null) delete answer.id;
    // A tool the API refused the credential of: the request itself is unauthorized (its grant revoked while the gateway's
    // cached answer still let /mcp through), so the client authorizes again rather than read a tool's failure.
    if (credentialRefused) return { status: 401 };
    return { status: response.status as McpReply['status'], ...(answer ? { body: answer } : {}) };
  } finally {
    await server.close();
  }
}

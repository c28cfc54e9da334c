import * as v from 'valibot';
import { errorEnvelope } from '../../shared/http/envelope';
import { scopeAllows, type ApiKeyScope } from '../../shared/auth/scopes';
import { VIA_HEADER } from '../../shared/audit/writer';
import { requestOf, type ApiTool } from './tools';
import { PROTOCOL_VERSIONS, type TOOLSETS } from './schema';

/** Who is calling `/mcp`, and where the API it calls on their behalf is. */
export interface McpCaller {
  /** The caller's own `Authorization` header: every tool call is a request of the API with the same key. */
  authorization: string;
  /** The API's base URL as the caller reached it (`https://api.example.com`, `http://localhost:3000`). */
  baseUrl: string;
  scope: ApiKeyScope;
  toolset: (typeof TOOLSETS)[number];
}

/** Every tool; read only by the requests that list or call them. */
export type ToolSource = () => Promise<readonly ApiTool[]>;

export const SERVER_INFO = { name: 'sales-pipeline', title: 'Sales Pipeline API', version: '1.0.0' };
export const INSTRUCTIONS =
  'Tools of a sales pipeline for trades businesses. On a live call: lookup_caller with the caller id, get_receptionist_context once, find_availability then hold_slot and book_appointment to book a visit, resolve_transfer to hand the call over, and log_call when it ends. Every other tool is one route of the REST API.';
export const CAPABILITIES = { tools: { listChanged: false } };

/** A tool as `tools/list` describes it. */
export const asTool = (tool: ApiTool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  annotations: tool.annotations,
});

/** The tools the caller's scope and toolset offer. */
export const offeredTools = (tools: readonly ApiTool[], caller: McpCaller): ApiTool[] =>
  tools.filter((tool) => scopeAllows(caller.scope, tool.method) && (caller.toolset === 'all' || tool.curated));

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

/** Calls the tool's route of the API as the caller, and answers the result: the body as structured content and as text. */
export async function callTool(tool: ApiTool, args: Record<string, unknown>, caller: McpCaller): Promise<ToolResult> {
  if (!scopeAllows(caller.scope, tool.method)) {
    return toolFailure(JSON.stringify(errorEnvelope(403, `A ${caller.scope} key may not call ${tool.name} (${tool.method} ${tool.path})`, 'INSUFFICIENT_SCOPE')));
  }
  const request = requestOf(tool, args);
  if (request.unknown.length) return toolFailure(JSON.stringify(errorEnvelope(400, `${tool.name} takes no argument ${request.unknown.join(', ')}`, 'VALIDATION_ERROR')));
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
  });
  const text = await response.text();
  // The API's answer is the tool's: an error's envelope as text (structured content would have to match the output schema).
  if (!response.ok) return toolFailure(text);
  const structured = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  return { content: [{ type: 'text', text: text || '{}' }], ...(tool.outputSchema ? { structuredContent: structured } : {}) };
}

/** The revision an `initialize` agrees on: the one asked for if the server speaks it, else the latest, as the protocol says. */
export const agreedRevision = (requested: unknown): string =>
  (PROTOCOL_VERSIONS as readonly unknown[]).includes(requested) ? (requested as string) : PROTOCOL_VERSIONS[0];

/** JSON-RPC 2.0 error codes. */
const PARSE_ERROR = -32700;
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/*
 * The protocol's schemas for what this server reads, as the MCP SDK's (types.ts) hold them, so a message is taken or
 * refused as the SDK's server took or refused it (test/mcp-protocol.test.ts compares the two).
 */
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const plainObject = v.custom<Record<string, unknown>>(isPlainObject, 'Invalid type: Expected an object');
/** An object with these fields (and any others); never an array. */
const object = <E extends v.ObjectEntries>(entries: E) => v.pipe(plainObject, v.looseObject(entries));
/** Any object, arrays included. */
const anyObject = v.custom<object>((value) => typeof value === 'object' && value !== null, 'Invalid type: Expected an object');
const recordOf = <S extends v.GenericSchema>(schema: S) => v.pipe(plainObject, v.record(v.string(), schema));
const Meta = v.optional(object({ progressToken: v.optional(v.union([v.string(), v.pipe(v.number(), v.integer())])), 'io.modelcontextprotocol/related-task': v.optional(object({ taskId: v.string() })) }));
const Task = object({ ttl: v.optional(v.number()) });
const ClientCapabilities = object({
  experimental: v.optional(recordOf(anyObject)),
  sampling: v.optional(object({ context: v.optional(anyObject), tools: v.optional(anyObject) })),
  elicitation: v.optional(object({ form: v.optional(object({ applyDefaults: v.optional(v.boolean()) })), url: v.optional(anyObject) })),
  roots: v.optional(object({ listChanged: v.optional(v.boolean()) })),
  tasks: v.optional(
    object({
      list: v.optional(anyObject),
      cancel: v.optional(anyObject),
      requests: v.optional(object({ sampling: v.optional(object({ createMessage: v.optional(anyObject) })), elicitation: v.optional(object({ create: v.optional(anyObject) })) })),
    }),
  ),
  extensions: v.optional(recordOf(anyObject)),
});
const Icon = object({ src: v.string(), mimeType: v.optional(v.string()), sizes: v.optional(v.array(v.string())), theme: v.optional(v.picklist(['light', 'dark'])) });
const Implementation = object({ name: v.string(), title: v.optional(v.string()), icons: v.optional(v.array(Icon)), version: v.string(), websiteUrl: v.optional(v.string()), description: v.optional(v.string()) });

/** The parameters each method takes (the revision an `initialize` asks for is agreed, never refused). */
const PARAMS = {
  initialize: object({ _meta: Meta, capabilities: ClientCapabilities, clientInfo: Implementation }),
  ping: v.optional(object({ _meta: Meta })),
  'tools/list': v.optional(object({ _meta: Meta, cursor: v.optional(v.string()) })),
  'tools/call': object({ _meta: Meta, task: v.optional(Task), name: v.string(), arguments: v.optional(recordOf(v.unknown())) }),
};

type Method = keyof typeof PARAMS;

/** A request's parameters; malformed ones answer Internal error, as the SDK's server answered them. */
function paramsOf<M extends Method>(method: M, params: unknown): v.InferOutput<(typeof PARAMS)[M]> {
  const parsed = v.safeParse(PARAMS[method], params);
  if (parsed.success) return parsed.output as v.InferOutput<(typeof PARAMS)[M]>;
  throw new RpcError(INTERNAL_ERROR, parsed.issues.map((issue) => `${['params', v.getDotPath(issue)].filter(Boolean).join('.')}: ${issue.message}`).join('; '));
}

/** What each method answers; any other method is not found. */
const METHODS: Record<Method, (params: unknown, tools: ToolSource, caller: McpCaller) => Promise<Record<string, unknown>>> = {
  initialize: async (params) => {
    paramsOf('initialize', params);
    return { protocolVersion: agreedRevision((params as { protocolVersion?: unknown }).protocolVersion), capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
  },
  ping: async (params) => {
    paramsOf('ping', params);
    return {};
  },
  'tools/list': async (params, tools, caller) => {
    paramsOf('tools/list', params);
    return { tools: offeredTools(await tools(), caller).map(asTool) };
  },
  'tools/call': async (params, tools, caller) => {
    const { name, arguments: args } = paramsOf('tools/call', params);
    const tool = toolNamed(await tools(), name);
    if (!tool) return toolFailure(JSON.stringify(errorEnvelope(404, `No tool named ${name}`, 'NOT_FOUND')));
    return callTool(tool, args ?? {}, caller);
  },
};

/** A JSON-RPC message as the transport takes it: these four fields only, and parameters that are an object with a valid `_meta`. */
const isMessage = (message: Record<string, unknown>) =>
  Object.keys(message).every((key) => key === 'jsonrpc' || key === 'id' || key === 'method' || key === 'params') && v.is(v.optional(object({ _meta: Meta })), message.params);

/** A request asking to run as a task (`params.task`), which no method of this server does. */
const asksForTask = (params: unknown) => isPlainObject(params) && params.task !== undefined && v.is(object({ _meta: Meta, task: v.optional(Task) }), params);

/** What `POST /mcp` answers: 202 and nothing to a notification, else a JSON-RPC answer. */
export interface McpReply {
  status: 200 | 202 | 400;
  body?: Record<string, unknown>;
}

/** The answer to a request naming, in MCP-Protocol-Version, a revision the server does not speak. */
export function refusedRevision(headers: Record<string, string>): McpReply | undefined {
  const requested = headers['mcp-protocol-version'];
  if (requested === undefined || (PROTOCOL_VERSIONS as readonly string[]).includes(requested)) return undefined;
  return { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: `Unsupported MCP-Protocol-Version ${requested}; this server speaks ${PROTOCOL_VERSIONS.join(', ')}` } } };
}

/**
 * Answers one message of MCP's Streamable HTTP transport, statelessly and as JSON: `initialize`, `ping`, `tools/list`
 * and `tools/call`, which is all a server of tools without sessions takes; any other request is a method not found,
 * and a notification is accepted with nothing to answer. A request naming a revision the server does not speak in
 * MCP-Protocol-Version is refused. The protocol's SDK answered these before; its server and the schemas of the whole
 * protocol it builds at import were most of this function's cold start, and test/mcp-protocol.test.ts holds that
 * this server answers every message as the SDK's does.
 */
export async function answerMcp(message: { id?: string | number; method: string; params?: Record<string, unknown>; [key: string]: unknown }, headers: Record<string, string>, tools: ToolSource, caller: McpCaller): Promise<McpReply> {
  const refused = refusedRevision(headers);
  if (refused) return refused;
  if (!isMessage(message)) return { status: 400, body: { jsonrpc: '2.0', error: { code: PARSE_ERROR, message: 'Parse error: Invalid JSON-RPC message' }, id: null } };
  if (message.id === undefined) return { status: 202 };
  const { id, method, params } = message;
  if (!Object.hasOwn(METHODS, method)) return { status: 200, body: { jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } } };
  try {
    if (asksForTask(params)) throw new RpcError(INTERNAL_ERROR, `Server does not support task creation (required for ${method})`);
    const result = await METHODS[method as Method](params, tools, caller);
    return { status: 200, body: { result, jsonrpc: '2.0', id } };
  } catch (error) {
    const { code, message: text, data } = error as { code?: unknown; message?: string; data?: unknown };
    return { status: 200, body: { jsonrpc: '2.0', id, error: { code: Number.isSafeInteger(code) ? code : INTERNAL_ERROR, message: text ?? 'Internal error', ...(data === undefined ? {} : { data }) } } };
  }
}

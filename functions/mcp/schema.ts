import * as v from 'valibot';
import { RESOURCE_TOOLSETS } from './toolsets';
import { prose } from '#shared/prose';

export { RESOURCE_TOOLSETS };

/** The protocol revisions the server speaks: the latest, and the one before it for older clients. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'] as const;

/**
 * The toolsets `?tools=` names, comma-separated: `curated` (the default), `all`, or one resource's tools. The
 * resources' are generated from the list of resources (./toolsets.ts), which the MCP function does not bundle;
 * buildTools (./tools.ts) refuses a resource whose toolset is missing.
 */
export const TOOLSETS = ['curated', 'all', ...RESOURCE_TOOLSETS] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** The toolsets a `tools` value names, each once. */
export const toolsetsOf = (tools: string): Toolset[] => [...new Set(tools.split(','))] as Toolset[];

/** One toolset name or more, separated by commas. */
const TOOLSETS_PATTERN = `^(?:${TOOLSETS.join('|')})(?:,(?:${TOOLSETS.join('|')}))*$`;

const TOOLS_DESCRIPTION = prose`
  The toolsets \`tools/list\` offers, separated by commas; \`tools/call\` takes any tool by its name. \`curated\` (the
  default): the tools made for a voice agent or an assistant with little context (lookup_caller, find_availability, …),
  at most 40 in at most 40 KB of JSON. \`all\`: those and every route of the API as a tool, named by its operationId in
  snake_case. A resource’s name (${RESOURCE_TOOLSETS.join(', ')}): its routes’ tools, e.g. \`curated,leads\`.
`;

export const McpQuery = v.object({
  tools: v.optional(
    v.pipe(
      v.string('tools must be a string'),
      v.maxLength(400, 'tools must be at most 400 characters'),
      v.regex(new RegExp(TOOLSETS_PATTERN), `tools must be toolsets among ${TOOLSETS.join(', ')}, separated by commas`),
      v.description(TOOLS_DESCRIPTION),
    ),
    'curated',
  ),
});

const isRecord = (input: unknown) => typeof input === 'object' && input !== null && !Array.isArray(input);

/**
 * One JSON-RPC 2.0 request (with an `id`) or notification (without), as MCP's Streamable HTTP transport posts it; the
 * MCP SDK reads the rest. The server asks the client nothing, so a client never posts a response: one is refused. No
 * other member: the SDK would refuse the message as unreadable.
 */
export const McpMessage = v.strictObject(
  {
    jsonrpc: v.literal('2.0', 'jsonrpc must be "2.0"'),
    id: v.optional(v.union([v.pipe(v.string(), v.maxLength(200, 'id must be at most 200 characters')), v.pipe(v.number(), v.integer())], 'id must be a string or an integer')),
    method: v.pipe(v.string('method must be a string'), v.maxLength(200, 'method must be at most 200 characters')),
    // The method's own parameters, which the MCP SDK checks. JSON-RPC's structured value, kept as sent: params by
    // position (an array) are a valid message whose params no MCP method takes (Invalid params, functions/mcp/server.ts).
    params: v.optional(v.pipe(v.custom<Record<string, unknown> | unknown[]>((input) => isRecord(input) || Array.isArray(input), 'params must be an object'), v.metadata({ jsonSchema: { type: 'object', additionalProperties: true } }))),
  },
  'the body must be one JSON-RPC message, an object',
);

/**
 * The params of the requests an agent sends with arguments of its own. The SDK refuses malformed ones as a fault of
 * the server's (-32603); checked first, they are the client's, Invalid params (-32602), as JSON-RPC says.
 */
export const McpParams = new Map<string, v.GenericSchema>([
  [
    'initialize',
    v.looseObject(
      {
        protocolVersion: v.string('params.protocolVersion must be a string'),
        capabilities: v.custom(isRecord, 'params.capabilities must be an object'),
        clientInfo: v.looseObject({ name: v.string('params.clientInfo.name must be a string'), version: v.string('params.clientInfo.version must be a string') }, 'params.clientInfo must be an object'),
      },
      'initialize takes params: protocolVersion, capabilities and clientInfo',
    ),
  ],
  [
    'tools/call',
    v.looseObject(
      {
        name: v.string('params.name must be a string'),
        arguments: v.optional(v.custom(isRecord, 'params.arguments must be an object of the tool’s arguments')),
      },
      'tools/call takes params: the tool’s name and its arguments',
    ),
  ],
]);

/** A JSON-RPC 2.0 answer: a result, or an error with a code and a message. */
export const McpAnswer = v.looseObject({
  jsonrpc: v.literal('2.0'),
  id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  result: v.optional(v.looseObject({})),
  error: v.optional(v.looseObject({ code: v.number(), message: v.string() })),
});

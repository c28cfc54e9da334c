import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorEnvelope } from '../../shared/http/envelope';
import { agreedRevision, asTool, callTool, CAPABILITIES, INSTRUCTIONS, offeredTools, refusedRevision, SERVER_INFO, toolFailure, toolNamed, type McpCaller, type McpReply, type ToolSource } from '../../functions/mcp/server';

/** The server validates JSON Schema only for elicitation, which it never asks for. */
const NO_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'This server validates no JSON Schema' }),
};

/**
 * The MCP server as the protocol's SDK makes it, with the same tools and the same calls: what functions/mcp/server.ts
 * answered through before it answered the protocol itself, kept as the reference test/mcp-protocol.test.ts holds it to.
 * A server and a transport for one request, stateless, answering JSON.
 */
export async function answerMcpWithSdk(message: Record<string, unknown>, headers: Record<string, string>, tools: ToolSource, caller: McpCaller): Promise<McpReply> {
  const refused = refusedRevision(headers);
  if (refused) return refused;
  const params = message.params as Record<string, unknown> | undefined;
  // An `initialize` asking for a revision the server does not speak is answered with the latest.
  const body = message.method === 'initialize' && params ? { ...message, params: { ...params, protocolVersion: agreedRevision(params.protocolVersion) } } : message;
  const { 'content-length': _length, 'transfer-encoding': _encoding, ...forwarded } = headers;
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_SCHEMA_VALIDATION });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: offeredTools(await tools(), caller).map((tool) => asTool(tool) as Tool) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params: { name, arguments: args } }) => {
    const tool = toolNamed(await tools(), name);
    if (!tool) return toolFailure(JSON.stringify(errorEnvelope(404, `No tool named ${name}`, 'NOT_FOUND')));
    return callTool(tool, args ?? {}, caller);
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(
      new Request('http://mcp.local/mcp', {
        method: 'POST',
        headers: { ...forwarded, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status as McpReply['status'], ...(text ? { body: JSON.parse(text) as Record<string, unknown> } : {}) };
  } finally {
    await server.close();
  }
}

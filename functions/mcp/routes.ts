import * as v from 'valibot';
import { defineRoute } from '#shared/routes/route';
import { ErrorEnvelopeSchema } from '#shared/schema';
import { errorEnvelope } from '#shared/http/envelope';
import { ORIGIN_NOT_ALLOWED, refuseForeignOrigin } from './origin';
import { McpAnswer, McpMessage, McpQuery, PROTOCOL_VERSIONS } from './schema';
import { CURATED_TOOLS } from './tools';
import { prose } from '#shared/prose';

export const postMcp = defineRoute({
  operationId: 'postMcp',
  method: 'POST',
  path: '/mcp',
  summary: 'The API as MCP tools, for AI agents (Model Context Protocol, Streamable HTTP)',
  description: prose`
    An MCP server over Streamable HTTP, stateless: no session, every message is answered on its own, as JSON (never an
    event stream, so \`GET /mcp\` answers 405). Protocol revisions ${PROTOCOL_VERSIONS.join(' and ')}, agreed in
    \`initialize\`. \`tools/list\` offers the curated tools for a voice agent
    (${CURATED_TOOLS.map((tool) => tool.name).join(', ')}) unless \`tools\` names other toolsets: \`all\` adds every
    keyed route of this API as a tool named by its operationId in snake_case (\`create_lead\`; one tool for a PUT and
    its PATCH), with the route’s parameters and body as its input schema and its answer as its output schema.
    Resources: \`receptionist://context\`, the receptionist context of the key’s organization; prompts: \`live_call\`,
    the steps of a live call with the curated tools. A tool acts as the API key that called \`/mcp\`: within its
    organization, under its rate limit, and within its scope (a read key sees and calls only GET tools, exactly those
    marked readOnlyHint; a write key no DELETE tools). A tool’s failure is a result with \`isError\` and the API’s
    error envelope as its text. POST tools take \`idempotencyKey\`, sent as the Idempotency-Key header; \`/mcp\`
    itself takes no Idempotency-Key (400).
  `,
  tag: 'MCP',
  dynamodb: [],
  status: 200,
  request: { query: McpQuery, body: McpMessage, bodyAsText: true },
  response: McpAnswer,
  requestExample: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'log_call', arguments: { phone: '+61412345001', summary: 'Wants a quote to clear a blocked kitchen drain.' } } },
  errors: [400, 403],
  admission: refuseForeignOrigin,
  // JSON-RPC messages carry their own ids; a tool's API request carries the tool's `idempotencyKey`.
  idempotencyKey: false,
  // OAuth's access tokens are for this route alone.
  tokenAudience: true,
  responses: {
    202: { description: 'A notification: accepted, nothing to answer. The server sends the client no request, so a response from the client is refused (400).', empty: true },
    403: {
      description: prose`
        ORIGIN_NOT_ALLOWED: the request carries an \`Origin\` other than a page on localhost, refused before its
        body is read, as the protocol requires of every server against DNS rebinding; clients that are not browsers
        send no \`Origin\`. Every key reaches this route, a \`read\` key too: the server answers a tool its key’s
        scope does not allow as a failed tool call, and leaves it out of \`tools/list\`.
      `,
      examples: {
        OriginNotAllowed: errorEnvelope(403, 'Origin "https://attacker.example" may not call /mcp: only clients that send no Origin, or pages on localhost', ORIGIN_NOT_ALLOWED),
      },
    },
    400: {
      description: prose`
        Not a JSON-RPC message the server can take, answered with a JSON-RPC error: -32700 Parse error for a body
        that is not JSON and -32600 Invalid Request for a batch or an object that is no request or notification
        (\`id\` null then, unless the message’s id could be read); -32000 for an \`MCP-Protocol-Version\` the server
        does not speak, with the request’s id. The error envelope for what the route itself refuses: an unknown
        \`tools\`, an Idempotency-Key (\`error.details\` names it).
      `,
      schema: v.union([McpAnswer, ErrorEnvelopeSchema]),
    },
  },
});

export const mcpRoutes = [postMcp];

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** The MCP protocol SDK alone, the part of the MCP function's cold start that is the SDK's: its server and transport. */
export const handler = async () => ({ statusCode: 200, body: String(Boolean(Server) && Boolean(WebStandardStreamableHTTPServerTransport)) });

import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll } from 'vitest';
import type { TestApi } from './api';

/**
 * Connects the official MCP SDK client (initialized) to the test API's /mcp with an API key and a query (`?tools=…`),
 * as Claude, Cursor or a voice platform would; every client it opens is closed after the file.
 */
export function mcpConnector(api: TestApi): (apiKey: string, query?: string) => Promise<McpClient> {
  const opened: McpClient[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((client) => client.close()));
  });
  return async (apiKey, query = '') => {
    const client = new McpClient({ name: 'sales-pipeline-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
    opened.push(client);
    return client;
  };
}

import type { IsolationCases } from '#shared/resource';

/** How the MCP route answers another organization (test/isolation.test.ts). */
export const isolationCases: IsolationCases = {
  postMcp: 'Takes no id: each tool is a request of the API with the same key, answered as that request is (functions/mcp/mcp.test.ts reads another organization’s lead through a tool: not found).',
};

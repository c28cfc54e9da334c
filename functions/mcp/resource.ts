import { defineResource } from '#shared/resource';
import { mcpRoutes } from './routes';

/** The API for AI agents: an MCP server whose tools are the routes of every other resource. It stores nothing. */
export const mcp = defineResource({
  name: 'mcp',
  tags: { MCP: 'The API as tools for AI agents, over the Model Context Protocol: curated tools for a voice agent, every route on request, the receptionist context as a resource and the live call as a prompt.' },
  // No member's session reaches /mcp (its audience is API keys and OAuth tokens): the role is never asked.
  sessionRoles: { write: 'MEMBER' },
  routes: mcpRoutes,
  // Any member: each tool is offered and called by the caller's scope and role, as its route is (functions/authority.ts).
});

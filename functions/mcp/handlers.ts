import type * as v from 'valibot';
import { apiBaseUrl } from '#shared/http/base-url';
import { unauthorizedByFunction } from '#shared/http/unauthorized';
import { routeHandler } from '#shared/http/route-handler';
import { Answer, EmptyAnswer } from '#shared/http/answer';
import { CompressibleJson, PER_REQUEST_GZIP_LEVEL } from '#shared/http/compressible-text';
import { apiTools } from './built-tools';
import * as routes from './routes';
import { toolsetsOf, type McpAnswer } from './schema';
import { answerMcp } from './server';
import { authorityOf } from '../authority';

/** Answers longer than this are worth gzipping (a tool call's answer rarely is; tools/list always). */
const GZIP_FROM_CHARACTERS = 16 * 1024;

/**
 * The handler of POST /mcp: one JSON-RPC message in, its answer out, every tool a request of the API as the caller.
 * It reads and writes no table itself (it keeps no idempotent answers), so its bundle carries no DynamoDB client.
 */
export const postMcpHandler = routeHandler(routes.postMcp, async ({ query, request, scope }) => {
  // The route is keyed, so the factory always has the key's scope; none would be a wiring fault, never a licence for all tools.
  if (scope === null) throw new Error('POST /mcp reached its handler without an API key scope');
  // Tools call the API where configuration puts it, never at the Host this request named.
  // With an OAuth access token, whose audience is /mcp alone, tools call the API with the MCP server's own token for
  // it, which the authorizer made and passed here in its context (functions/oauth/authorize-token.ts).
  const { mcpToken } = request.authorizer;
  const authorization = typeof mcpToken === 'string' && mcpToken ? `Bearer ${mcpToken}` : (request.headers.authorization ?? '');
  const caller = { authorization, baseUrl: apiBaseUrl(), ...authorityOf(request.authorizer, scope), toolsets: toolsetsOf(query.tools) };
  // The body is read as text: JSON-RPC, not the error envelope, answers one that is no message.
  const reply = await answerMcp(request.body, request.headers, apiTools, caller);
  if (reply.status === 202) return new EmptyAnswer(202);
  // Answered as the gateway answers a token it refuses: with an OAuth access token, naming where to authorize again
  // (the authorizer's challenge, in its context), else the scheme alone.
  if (reply.status === 401) throw unauthorizedByFunction(typeof request.authorizer.challenge === 'string' ? request.authorizer.challenge : undefined);
  // tools/list is tens of KB as curated and hundreds with every tool (the README's figures, which a test measures): gzipped for a client that accepts it, a tenth of that.
  if (reply.status === 200 && reply.body) {
    // Serialized once: the text decides, and is what is sent.
    const answer = new CompressibleJson(reply.body as v.InferInput<typeof McpAnswer>, PER_REQUEST_GZIP_LEVEL);
    if (answer.text.length > GZIP_FROM_CHARACTERS) return answer;
  }
  return new Answer(reply.status, reply.body ?? {});
});

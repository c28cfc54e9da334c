import { apiHandler } from '../../shared/http/api-handler';
import { Answer, EmptyAnswer } from '../../shared/http/answer';
import { DEFAULT_SCOPE } from '../../shared/auth/scopes';
import { buildDocument } from '../meta/document';
import { routes as apiRoutes } from '../resources';
import * as routes from './routes';
import { answerMcp } from './server';
import { buildTools, type ApiTool } from './tools';

/** The tools, built from the document on the first request and kept for the container's life. */
let tools: ApiTool[] | undefined;

/** The handler of POST /mcp: one JSON-RPC message in, its answer out, every tool a request of the API as the caller. */
export const postMcpHandler = apiHandler(routes.postMcp, async ({ query, body, request, scope }) => {
  tools ??= buildTools(buildDocument(), apiRoutes);
  const caller = { authorization: request.headers.authorization ?? '', baseUrl: request.baseUrl, scope: scope ?? DEFAULT_SCOPE, toolset: query.tools };
  const response = await answerMcp(body, request.headers, tools, caller);
  if (response.status === 202) return new EmptyAnswer(202);
  const text = await response.text();
  return new Answer(response.status, text ? JSON.parse(text) : {});
});

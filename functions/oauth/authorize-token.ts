import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { logger } from '#shared/observability';
import { countAuthorizerFailure, refused } from '#shared/auth/authorizer-failures';
import { publicBaseUrl } from '#shared/http/base-url';
import { AUDIENCE_BOUND } from '#shared/auth/tokens';
import { answerFor } from '../authorizer-answer';
import { MCP_ROUTE, mcpResourceOf, unauthorizedChallenge } from './metadata';
import { findSecret, mcpTokenOf, principalOf, secretKindOf, type OAuthPrincipal, type StoredSecret } from './secrets';


/** Whether a bearer value is one OAuth issued for calls (an access token or the MCP server's token), not an API key. */
export const isOAuthToken = (token: string) => ['access', 'mcp'].includes(secretKindOf(token) ?? '');

/** The method and path of an execute-api ARN (`…/<stage>/POST/mcp`). */
function requestOf(methodArn: string): { method: string; path: string } {
  const [, , method = '', ...path] = methodArn.split('/');
  return { method, path: `/${path.join('/')}` };
}

const lowerCased = (headers: Record<string, string | undefined> | null) => Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value ?? '']));

/**
 * The gateway's answer for an OAuth token (the API key authorizer hands it over by its prefix). An access token is
 * allowed on `POST /mcp` alone, and only where its audience is this server's `/mcp` (a token issued for another
 * server, or presented on a REST route, is refused as an unknown key is: 401). Its policy names every path, so that a
 * cached answer lets the token reach a REST route's function, which refuses it 401 too (route-handler.ts,
 * `tokenAudience`), rather than the gateway answering a scope's 403. Its context carries the MCP server's own token,
 * with which the MCP function calls the API for each tool. That token is allowed what the grant's scope allows on the
 * REST routes, and writes are attributed to the granting key with the client (`via: mcp`, `clientId`).
 */
export async function authorizeOAuthToken(token: string, event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> {
  const unauthorized = () => refused('apiKey', context);
  const kind = secretKindOf(token)!;
  const asked = requestOf(event.methodArn);
  const onMcp = asked.method === MCP_ROUTE.method && asked.path === MCP_ROUTE.path;
  if (kind === 'access' && !onMcp) throw await unauthorized();
  const failed = async (error: unknown): Promise<never> => {
    logger.error('authorizer could not check the OAuth token', { error: error as Error });
    await countAuthorizerFailure('apiKey', context);
    throw new Error('The OAuth token store could not be read');
  };
  const secret: StoredSecret | undefined = await findSecret(token, kind).catch(failed);
  if (!secret) throw await unauthorized();
  const base = publicBaseUrl(lowerCased(event.headers));
  if (kind === 'access' && secret.resource !== mcpResourceOf(base)) throw await unauthorized();
  const principal: OAuthPrincipal | undefined = await principalOf(secret).catch(failed);
  if (!principal) throw await unauthorized();
  const answer = await answerFor(event.methodArn, {
    principalId: principal.keyId,
    organizationId: principal.organizationId,
    // The grant acts for whom its key acts: the member who consented (or whose key was pasted), held to their role now.
    memberId: principal.memberId,
    scope: principal.scope,
    // An access token's names every path: the gateway caches this answer per token, and one naming /mcp alone would
    // answer the token on a REST route 403 (a scope's refusal) once cached; every route but /mcp refuses it 401 itself.
    everywhere: kind === 'access',
    endsAt: principal.endsAt,
    context: {
      keyId: principal.keyId,
      keyName: principal.keyName,
      clientId: principal.clientId,
      // With the challenge the MCP function answers a 401 with once the grant is revoked (the gateway's own, as here).
      ...(kind === 'access' ? { mcpToken: mcpTokenOf(token, secret.salt ?? ''), [AUDIENCE_BOUND]: true, challenge: unauthorizedChallenge(base) } : {}),
    },
  }).catch(failed);
  if (!answer) throw await unauthorized();
  return answer;
}

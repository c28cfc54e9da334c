import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { bearerToken } from '#shared/auth/tokens';
import { logger } from '#shared/observability';
import { countAuthorizerFailure, refused } from '#shared/auth/authorizer-failures';
import { findActiveKeyByToken, touchApiKey } from '#shared/auth/api-keys';
import { answerFor } from './authorizer-answer';
import { authorizeOAuthToken, isOAuthToken } from './oauth/authorize-token';
import { authorizeSession } from './sign-in/authorize-session';
import { isSessionToken } from './sign-in/session-token';

export const handler = async (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> => {
  /** API Gateway answers a thrown "Unauthorized" with 401 (the UNAUTHORIZED gateway response); each is counted. */
  const unauthorized = () => refused('apiKey', context);
  const token = bearerToken(event.headers);
  if (!token) throw await unauthorized();
  // An OAuth token (functions/oauth): an access token on /mcp alone, or the MCP server's own for its tool calls.
  if (isOAuthToken(token)) return authorizeOAuthToken(token, event, context);
  // A member's session (functions/console): the console's cookie, which reaches the gateway as this bearer token.
  if (isSessionToken(token)) return authorizeSession(token, event, context);
  const failed = async (error: unknown): Promise<never> => {
    // Not the caller's fault: any error but "Unauthorized" makes API Gateway answer AUTHORIZER_FAILURE (503).
    logger.error('authorizer could not check the key', { error: error as Error });
    await countAuthorizerFailure('apiKey', context);
    throw new Error('The API key store could not be read');
  };
  const key = await findActiveKeyByToken(token).catch(failed);
  if (!key) throw await unauthorized();
  const [answer] = await Promise.all([
    // The key acts for the member who made it (or for the organization, an operator's key): held to that member's role now.
    answerFor(event.methodArn, { principalId: key.keyId, organizationId: key.organizationId, memberId: key.memberId, scope: key.scope, endsAt: key.expiresAt, context: { keyId: key.keyId, keyName: key.name ?? '' } }).catch(failed),
    // Bookkeeping must never refuse a valid key: a failed write is logged, and the request goes on.
    touchApiKey(key).catch((error: unknown) => {
      logger.error('could not record the key as used', { keyId: key.keyId, error: error as Error });
    }),
  ]);
  // A key outlives nothing: with its organization's record gone, or its member removed or disabled, it is refused as any unknown key is.
  if (!answer) throw await unauthorized();
  return answer;
};

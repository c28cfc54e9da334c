import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { bearerToken } from '#shared/auth/tokens';
import { usageIdentifierKey } from '#shared/auth/usage-plans';
import { logger } from '#shared/observability';
import { countAuthorizerFailure, refused } from '#shared/auth/authorizer-failures';
import { findActiveKeyByToken, touchApiKey } from '#shared/auth/api-keys';
import { scopeResources } from '#shared/auth/scopes';
import { getOrganizationCounterShards } from './organization/counter-shards';
import { authorizeOAuthToken, isOAuthToken } from './oauth/authorize-token';
import { authorizeSession } from './console/authorize-session';
import { isSessionToken } from './console/session-token';

export const handler = async (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> => {
  /** API Gateway answers a thrown "Unauthorized" with 401 (the UNAUTHORIZED gateway response); each is counted. */
  const unauthorized = () => refused('apiKey', context);
  const token = bearerToken(event.headers);
  if (!token) throw await unauthorized();
  // An OAuth token (functions/oauth): an access token on /mcp alone, or the MCP server's own for its tool calls.
  if (isOAuthToken(token)) return authorizeOAuthToken(token, event, context);
  // A member's session (functions/console): the console's cookie, which reaches the gateway as this bearer token.
  if (isSessionToken(token)) return authorizeSession(token, event, context);
  const key = await findActiveKeyByToken(token).catch(async (error: unknown) => {
    // Not the caller's fault: any error but "Unauthorized" makes API Gateway answer AUTHORIZER_FAILURE (503).
    logger.error('authorizer could not check the key', { error: error as Error });
    await countAuthorizerFailure('apiKey', context);
    throw new Error('The API key store could not be read');
  });
  if (!key) throw await unauthorized();
  const [counterShards] = await Promise.all([
    // A setting of the organization's that every function needs, read here where API Gateway caches it.
    getOrganizationCounterShards(key.organizationId).catch(async (error: unknown) => {
      logger.error('authorizer could not read the organization settings', { error: error as Error });
      await countAuthorizerFailure('apiKey', context);
      throw new Error('The organization settings could not be read');
    }),
    // Bookkeeping must never refuse a valid key: a failed write is logged, and the request goes on.
    touchApiKey(key).catch((error: unknown) => {
      logger.error('could not record the key as used', { keyId: key.keyId, error: error as Error });
    }),
  ]);
  // A key outlives nothing: with its organization's record gone, it is refused as any unknown key is.
  if (counterShards === undefined) throw await unauthorized();
  return {
    principalId: key.keyId,
    // Every method and path the key's scope allows, whatever this request is: API Gateway caches the policy per token
    // and checks the token's later requests against it, answering a method outside it 403 INSUFFICIENT_SCOPE.
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: scopeResources(event.methodArn, key.scope) }],
    },
    // Context values are strings, numbers or booleans only: a key without a name is ''. Handlers read these
    // (route-handler.ts: `scope`; the writer attributed in the audit log: keyId, keyName).
    context: { organizationId: key.organizationId, keyId: key.keyId, keyName: key.name ?? '', scope: key.scope, counterShards },
    // API Gateway meters and throttles the request against the usage plan holding this organization's key.
    usageIdentifierKey: usageIdentifierKey(key.organizationId),
  };
};

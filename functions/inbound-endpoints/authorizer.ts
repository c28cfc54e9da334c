import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import * as v from 'valibot';
import { usageIdentifierKey } from '#shared/auth/usage-plans';
import { logger } from '#shared/observability';
import { countAuthorizerFailure, refused } from '#shared/auth/authorizer-failures';
import { findInboundEndpoint } from './store';
import { InboundEndpointIdPath } from './schema';

/**
 * The gateway's authorizer of POST /v1/inbound/{inboundEndpointId}: a post carries no API key, so the endpoint
 * named by the path says whose it is. An unknown endpoint is refused here (401) and counts against nobody; a known
 * one is allowed with its organization as the usage identifier, so API Gateway meters the post against that
 * organization's usage plan exactly as a request with its API key. The token or signature is the function's to
 * check: it needs the body, which an authorizer never sees. Its answer is not cached (no identity source).
 */
export const handler = async (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> => {
  /** API Gateway answers a thrown "Unauthorized" with 401 (the UNAUTHORIZED gateway response); each is counted. */
  const unauthorized = () => refused('inboundEndpoint', context);
  const path = v.safeParse(InboundEndpointIdPath, event.pathParameters ?? {});
  if (!path.success) throw await unauthorized();
  const endpoint = await findInboundEndpoint(path.output.inboundEndpointId).catch(async (error: unknown) => {
    // Not the sender's fault: any error but "Unauthorized" makes API Gateway answer AUTHORIZER_FAILURE (503).
    logger.error('inbound authorizer could not read the endpoint', { error: error as Error });
    await countAuthorizerFailure('inboundEndpoint', context);
    throw new Error('The inbound endpoint store could not be read');
  });
  if (!endpoint) throw await unauthorized();
  return {
    principalId: endpoint.id,
    // This method only: the answer is not cached, so it never has to cover another request.
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
    context: { organizationId: endpoint.organizationId, inboundEndpointId: endpoint.id },
    usageIdentifierKey: usageIdentifierKey(endpoint.organizationId),
  };
};

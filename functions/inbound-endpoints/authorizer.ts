import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { callerAddressOf } from '#shared/http/caller-address';
import * as v from 'valibot';
import { inboundUsageIdentifierKey } from '#shared/auth/usage-plans';
import { clock } from '#shared/clock';
import { logger } from '#shared/observability';
import { countAuthorizerFailure, refused } from '#shared/auth/authorizer-failures';
import { findInboundEndpoint } from './store';
import { InboundEndpointIdPath } from './schema';
import { createUnknownIdGuard } from './unknown-ids';
import { admitsSource } from './source-share';

/** This container's memory of ids found and not found, and of each source's lookups (unknown-ids.ts). */
const guard = createUnknownIdGuard({ now: () => clock.now() });

/**
 * The gateway's authorizer of POST /v1/inbound/{inboundEndpointId}: a post carries no API key, so the endpoint
 * named by the path says whose it is. An unknown endpoint is refused here (401) and counts against nobody; a known
 * one is allowed with its organization's inbound usage identifier, so API Gateway meters the post against that
 * organization's inbound plan, apart from its API keys' plan. The token or signature is the function's to check: it
 * needs the body, which an authorizer never sees. Its answer is not cached (no identity source), so this container
 * bounds what unknown ids cost: one source's lookups of ids never found, and ids just found missing, are refused
 * unread (unknown-ids.ts). A source past its share of the organization's inbound day is refused too (source-share.ts).
 */
export const handler = async (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> => {
  /** API Gateway answers a thrown "Unauthorized" with 401 (the UNAUTHORIZED gateway response); each is counted. */
  const unauthorized = () => refused('inboundEndpoint', context);
  const path = v.safeParse(InboundEndpointIdPath, event.pathParameters ?? {});
  if (!path.success) throw await unauthorized();
  const { inboundEndpointId } = path.output;
  const sourceIp = callerAddressOf(event);
  const settle = guard.lookUp(inboundEndpointId, sourceIp ?? 'unknown');
  if (!settle) throw await unauthorized();
  const endpoint = await findInboundEndpoint(inboundEndpointId).catch(async (error: unknown) => {
    // Not the sender's fault: any error but "Unauthorized" makes API Gateway answer AUTHORIZER_FAILURE (503).
    settle(undefined);
    logger.error('inbound authorizer could not read the endpoint', { error: error as Error });
    await countAuthorizerFailure('inboundEndpoint', context);
    throw new Error('The inbound endpoint store could not be read');
  });
  settle(endpoint !== undefined);
  if (!endpoint) throw await unauthorized();
  // Past its share of the organization's day, a source is refused here, before the gateway meters the post.
  const admitted = await admitsSource(endpoint, sourceIp).catch(async (error: unknown) => {
    logger.error('inbound authorizer could not count the source', { error: error as Error });
    await countAuthorizerFailure('inboundEndpoint', context);
    throw new Error('The source could not be counted');
  });
  if (!admitted) throw await unauthorized();
  return {
    principalId: endpoint.id,
    // This method only: the answer is not cached, so it never has to cover another request.
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
    // The post acts for this organization, its session opening this endpoint's secrets alone (`itemId`, the endpoint).
    context: { organizationId: endpoint.organizationId, itemId: endpoint.id },
    usageIdentifierKey: inboundUsageIdentifierKey(endpoint.organizationId),
  };
};

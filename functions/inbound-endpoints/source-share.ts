import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '#shared/clock';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { countSourceRequest, sourceOfAddress } from '#shared/limits/per-source';
import { inboundEndpointKeys, type InboundEndpointRecord } from './entity';
import { isCallPlatform } from './schema';
import { INBOUND_SOURCE_SHARE } from './source-limits';

/**
 * Whether the inbound authorizer lets `address` post to `endpoint`, counted before the gateway meters the post, so a
 * source past its share spends nothing more of the organization's quota. A voice platform's endpoint is not counted:
 * its URL is in no public page, and every call of every tenant comes from the platform's few addresses.
 */
export async function admitsSource(endpoint: InboundEndpointRecord, address: string | undefined): Promise<boolean> {
  if (isCallPlatform(endpoint.format)) return true;
  const source = sourceOfAddress(address);
  const admission = await countSourceRequest(INBOUND_SOURCE_SHARE, `${endpoint.organizationId}/${source}`);
  if (!admission.admitted && admission.first) await recordSourceLimited(endpoint, source, clock.now() + admission.retryAfterSeconds * 1000);
  return admission.admitted;
}

/**
 * The organization is told once per source and day, by the one request that met the share: the endpoint's item takes
 * the source as `sourceLimited`, which the stream makes `inbound_endpoint.source_limited` (changes.ts). Its `updatedAt`
 * stays: the endpoint's settings did not change. An endpoint deleted meanwhile is not written again.
 */
async function recordSourceLimited(endpoint: InboundEndpointRecord, source: string, untilMs: number) {
  const at = new Date(clock.now()).toISOString();
  const sourceLimited = { source, limit: INBOUND_SOURCE_SHARE.limit, until: new Date(Math.floor(untilMs / 1000) * 1000).toISOString(), at };
  await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: inboundEndpointKeys.inboundEndpoint(endpoint.organizationId, endpoint.id),
        UpdateExpression: 'SET sourceLimited = :limited',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':limited': sourceLimited },
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    });
}

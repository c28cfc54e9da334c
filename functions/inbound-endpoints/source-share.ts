import { countSourceRequest, sourceOfAddress } from '#shared/limits/per-source';
import type { InboundEndpointRecord } from './entity';
import { isCallPlatform } from './schema';
import { INBOUND_SOURCE_SHARE } from './source-limits';

/**
 * Whether the inbound authorizer lets `address` post to `endpoint`, counted before the gateway meters the post, so a
 * source past its share spends nothing more of the organization's quota. A voice platform's endpoint is not counted:
 * its URL is in no public page, and every call of every tenant comes from the platform's few addresses.
 */
export async function admitsSource(endpoint: InboundEndpointRecord, address: string | undefined): Promise<boolean> {
  if (isCallPlatform(endpoint.format)) return true;
  const admission = await countSourceRequest(INBOUND_SOURCE_SHARE, `${endpoint.organizationId}/${sourceOfAddress(address)}`);
  return admission.admitted;
}

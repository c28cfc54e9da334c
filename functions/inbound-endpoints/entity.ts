import * as v from 'valibot';
import { InboundEndpoint } from './schema';
import { keys } from '../../shared/store/keys';

/** What the item holds beyond the API's fields: the token's hash (never the token) and the signing secret. */
export const InboundEndpointRecord = v.object({ ...InboundEndpoint.entries, organizationId: v.string(), tokenHash: v.string(), secret: v.string() });
export type InboundEndpointRecord = v.InferOutput<typeof InboundEndpointRecord>;

export const toInboundEndpointItem = (endpoint: InboundEndpointRecord) => ({
  ...keys.inboundEndpoint(endpoint.organizationId, endpoint.id),
  ...keys.inboundEndpointById(endpoint.id),
  entity: 'INBOUND_ENDPOINT',
  ...endpoint,
});

export const fromInboundEndpointItem = (item: Record<string, unknown>): InboundEndpointRecord => v.parse(InboundEndpointRecord, item);

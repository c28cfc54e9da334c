import { INBOUND_ENDPOINT_ENTITY, inboundEndpointAudit } from './entity';
import type { EventSource, ResourceChanges } from '#shared/resource';

type Limited = { source: string; limit: number; until: string; at: string };

/**
 * `inbound_endpoint.source_limited`: a client address posted its share of the organization's inbound day and is refused
 * until 00:00 UTC (source-share.ts), marked on the endpoint whose post met the share: one event per source and day,
 * however many posts are refused.
 */
const sourceLimitedEvents: EventSource = {
  entity: INBOUND_ENDPOINT_ENTITY,
  data: 'InboundSourceLimited',
  types: ['inbound_endpoint.source_limited'],
  eventsOf: ({ kind, oldItem, newItem }) => {
    const limited = newItem?.sourceLimited as Limited | undefined;
    if (kind !== 'MODIFY' || !limited || (oldItem?.sourceLimited as Limited | undefined)?.at === limited.at) return [];
    return [{ type: 'inbound_endpoint.source_limited', data: { inboundEndpointId: newItem!.id, source: limited.source, limit: limited.limit, until: limited.until, createdAt: limited.at } }];
  },
};

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [sourceLimitedEvents],
  audited: [inboundEndpointAudit],
};

import { inboundEndpointAudit } from './entity';
import type { ResourceChanges } from '#shared/resource';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  audited: [inboundEndpointAudit],
};

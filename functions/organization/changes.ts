import { lifecycleEvents, type ResourceChanges } from '#shared/resource';
import { fromMemberItem, invitationAudit, memberAudit } from './member-entity';
import { apiKeyAudit, organizationAudit } from './entity';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [lifecycleEvents({ entity: 'MEMBER', data: 'Member', toData: fromMemberItem, created: 'member.created', updated: 'member.updated', deleted: 'member.deleted' })],
  audited: [organizationAudit, memberAudit, invitationAudit, apiKeyAudit],
};

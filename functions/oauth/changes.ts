import { lifecycleEvents, type ResourceChanges } from '#shared/resource';
import { OAUTH_GRANT_ENTITY, oauthGrantAudit } from './entity';
import { toGrant } from './grant';

/** What the stream consumer reads of OAuth (functions/resource-changes.ts): a grant made and a grant revoked, as events and audit entries. */
export const changes: ResourceChanges = {
  audited: [oauthGrantAudit],
  events: [lifecycleEvents({ entity: OAUTH_GRANT_ENTITY, data: 'OAuthGrant', toData: toGrant, created: 'oauth_grant.created', deleted: 'oauth_grant.revoked' })],
};

import { defineResource, namedComponents } from '#shared/resource';
import * as examples from './examples';
import { memberKeys, memberKeySamples } from './member-entity';
import { Invitation, Member, MemberUser } from './member-schema';
import { organizationRoutes } from './routes';
import { Organization } from './schema';
import { organizationKeys, organizationKeySamples } from './entity';
import { changes } from './changes';
import { METRIC } from '#shared/observability';

export const organization = defineResource({
  name: 'organization',
  tags: { Organization: 'The organization the API key belongs to: its settings, members, invitations and services by trade category.' },
  routes: organizationRoutes,
  // Its settings, members and invitations are an admin's to change; every member reads them (shared/member-roles.ts).
  sessionRoles: { write: 'ADMIN' },
  components: namedComponents({ Member, MemberUser, Invitation, Organization }, examples),
  ...changes,
  keys: [{ builders: organizationKeys, samples: organizationKeySamples }, { builders: memberKeys, samples: memberKeySamples }],
  // The isolation canary (./isolation-canary.ts): its read is signed with a tenant session, so its own role has no table grant.
  jobs: [
    {
      name: 'IsolationCanary',
      handler: 'isolation-canary',
      everyMinutes: 5,
      dynamodb: [],
      indexes: [],
      signsAsTenant: true,
      expects: { metric: METRIC.isolationProven, what: "The isolation canary proved no refusal in 15 minutes: one organization's session read another's record, or the canary did not run" },
    },
  ],
});

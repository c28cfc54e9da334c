import { defineResource } from '#shared/resource';
import { invitation, member, memberUser, organization as organizationExample } from './examples';
import { memberKeys, memberKeySamples } from './member-entity';
import { Invitation, Member, MemberUser } from './member-schema';
import { organizationRoutes } from './routes';
import { Organization } from './schema';
import { organizationKeys, organizationKeySamples } from './entity';
import { changes } from './changes';

export const organization = defineResource({
  name: 'organization',
  tags: { Organization: 'The organization the API key belongs to: its settings, members, invitations and services by trade category.' },
  routes: organizationRoutes,
  components: {
    Member: { schema: Member, example: member },
    MemberUser: { schema: MemberUser, example: memberUser },
    Invitation: { schema: Invitation, example: invitation },
    Organization: { schema: Organization, example: organizationExample },
  },
  ...changes,
  keys: [{ builders: organizationKeys, samples: organizationKeySamples }, { builders: memberKeys, samples: memberKeySamples }],
});

import { defineResource, namedComponents } from '#shared/resource';
import * as examples from './examples';
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
  components: namedComponents({ Member, MemberUser, Invitation, Organization }, examples),
  ...changes,
  keys: [{ builders: organizationKeys, samples: organizationKeySamples }, { builders: memberKeys, samples: memberKeySamples }],
});

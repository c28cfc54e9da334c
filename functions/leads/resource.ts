import { defineResource, namedComponents } from '#shared/resource';
import { leadKeys, leadKeySamples } from './entity';
import * as examples from './examples';
import { leadRoutes } from './routes';
import { Lead, LeadActivity } from './schema';
import { changes } from './changes';

export const leads = defineResource({
  name: 'leads',
  tags: { Leads: 'People who contacted the business or were added by hand, their pipeline status and their activity history.' },
  routes: leadRoutes,
  components: namedComponents({ Lead, LeadActivity }, examples),
  ...changes,
  keys: [{ builders: leadKeys, samples: leadKeySamples }],
});

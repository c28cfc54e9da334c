import { defineResource, lifecycleEvents } from '../../shared/resource';
import { fromLeadItem, leadKeys, leadKeySamples } from './entity';
import { lead, leadActivity } from './examples';
import { leadRoutes } from './routes';
import { Lead, LeadActivity } from './schema';

export const leads = defineResource({
  name: 'leads',
  tags: { Leads: 'People who contacted the business or were added by hand, their pipeline status and their activity history.' },
  routes: leadRoutes,
  components: { Lead: { schema: Lead, example: lead }, LeadActivity: { schema: LeadActivity, example: leadActivity } },
  events: [lifecycleEvents({ entity: 'LEAD', toData: fromLeadItem, created: 'lead.created', updated: 'lead.updated', deleted: 'lead.deleted' })],
  keys: [{ builders: leadKeys, samples: leadKeySamples }],
});

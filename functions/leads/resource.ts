import { defineResource, lifecycleEvents, type EventSource } from '../../shared/resource';
import { activityAudit, fromActivityItem, fromLeadItem, leadAudit, leadKeys, leadKeySamples } from './entity';
import { lead, leadActivity } from './examples';
import { leadRoutes } from './routes';
import { Lead, LeadActivity } from './schema';

/**
 * A note a client added to a lead's timeline: `lead.note_added` with the activity. The activities the API records
 * itself stand for changes that have their own events (lead.created, lead.updated, appointment.created).
 */
const noteEvents: EventSource = {
  entity: 'ACTIVITY',
  types: ['lead.note_added'],
  eventsOf: ({ kind, newItem }) => (kind === 'INSERT' && newItem?.event === 'NOTE_ADDED' ? [{ type: 'lead.note_added', data: fromActivityItem(newItem) }] : []),
};

export const leads = defineResource({
  name: 'leads',
  tags: { Leads: 'People who contacted the business or were added by hand, their pipeline status and their activity history.' },
  routes: leadRoutes,
  components: { Lead: { schema: Lead, example: lead }, LeadActivity: { schema: LeadActivity, example: leadActivity } },
  events: [lifecycleEvents({ entity: 'LEAD', toData: fromLeadItem, created: 'lead.created', updated: 'lead.updated', deleted: 'lead.deleted' }), noteEvents],
  audited: [leadAudit, activityAudit],
  keys: [{ builders: leadKeys, samples: leadKeySamples }],
});

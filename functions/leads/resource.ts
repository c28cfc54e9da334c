import { defineResource, namedComponents } from '#shared/resource';
import { leadKeys, leadKeySamples } from './entity';
import * as examples from './examples';
import { LeadSummary } from './summaries';
import { leadRoutes } from './routes';
import { Lead, LeadActivity } from './schema';
import { changes } from './changes';

export const leads = defineResource({
  name: 'leads',
  tags: { Leads: 'People who contacted the business or were added by hand, their pipeline status and their activity history.' },
  // Members work leads: add, change, move through the pipeline.
  sessionRoles: { write: 'MEMBER' },
  routes: leadRoutes,
  components: namedComponents({ Lead, LeadActivity, LeadSummary }, examples),
  ...changes,
  keys: [{ builders: leadKeys, samples: leadKeySamples }],
  zapier: {
    triggers: [
      { key: 'new_lead', noun: 'Lead', label: 'New Lead', description: 'Triggers when a lead is created, by a call, a form, an SMS or the API.', eventType: 'lead.created' },
      { key: 'lead_status_changed', noun: 'Lead', label: 'Lead Status Changed', description: "Triggers when a lead's status changes (for example from QUOTED to WON).", eventType: 'lead.updated', filter: { changed: ['status'] } },
    ],
    creates: [
      { key: 'create_lead', noun: 'Lead', label: 'Create Lead', description: 'Creates a new lead.', tool: 'create_lead' },
      { key: 'upsert_lead', noun: 'Lead', label: 'Create or Update Lead', description: 'Finds the lead with this email or phone (the one chosen in Match By) and updates it with the fields given, or creates it.', tool: 'upsert_lead' },
      { key: 'update_lead', noun: 'Lead', label: 'Update Lead', description: "Changes a lead's details, status, company or assignee.", tool: 'update_lead' },
      { key: 'add_note', noun: 'Note', label: 'Add Note to Lead', description: "Adds a note to a lead's activity.", tool: 'create_lead_activity', fixed: { event: 'NOTE' } },
    ],
    searches: [{ key: 'find_lead', noun: 'Lead', label: 'Find Lead', description: 'Finds a lead by email or phone (give one of the two).', tool: 'search_leads', pick: ['email', 'phone'] }],
    searchOrCreates: [{ search: 'find_lead', create: 'create_lead', label: 'Find or Create Lead' }],
  },
});

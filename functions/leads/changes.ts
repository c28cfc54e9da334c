import { lifecycleEvents, type EventSource, type ResourceChanges } from '#shared/resource';
import { activityAudit, fromActivityItem, fromLeadItem, leadAudit } from './entity';

/**
 * A note a client added to a lead's timeline: `lead.note_added` with the activity. The activities the API records
 * itself stand for changes that have their own events (lead.created, lead.updated, appointment.created).
 */
const noteEvents: EventSource = {
  entity: 'ACTIVITY',
  data: 'LeadActivity',
  types: ['lead.note_added'],
  eventsOf: ({ kind, newItem }) => (kind === 'INSERT' && newItem?.event === 'NOTE_ADDED' ? [{ type: 'lead.note_added', data: fromActivityItem(newItem) }] : []),
};

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [lifecycleEvents({ entity: 'LEAD', data: 'Lead', toData: fromLeadItem, created: 'lead.created', updated: 'lead.updated', deleted: 'lead.deleted' }), noteEvents],
  audited: [leadAudit, activityAudit],
};

import * as v from 'valibot';
import { Lead, LeadActivity } from '../schemas/leads';
import { keys } from './keys';

export function toLeadItem(organizationId: string, lead: Lead) {
  return {
    ...keys.lead(organizationId, lead.id),
    ...keys.leadIndexes(organizationId, lead),
    ...(lead.phone ? keys.leadPhoneIndex(organizationId, { id: lead.id, phone: lead.phone }) : {}),
    ...(lead.email ? keys.leadEmailIndex(organizationId, { id: lead.id, email: lead.email }) : {}),
    entity: 'LEAD',
    organizationId,
    ...lead,
  };
}

/** The schema keeps the lead's own fields, in documented order, and drops keys and bookkeeping. */
export const fromLeadItem = (item: Record<string, unknown>): Lead => v.parse(Lead, item);

export function toActivityItem(organizationId: string, activity: LeadActivity) {
  return { ...keys.activity(organizationId, activity.leadId, activity.id), entity: 'ACTIVITY', ...activity };
}

export const fromActivityItem = (item: Record<string, unknown>): LeadActivity => v.parse(LeadActivity, item);

import * as v from 'valibot';
import { newId } from '../ids';
import { ACTIVITY_SEQUENCE, insertLeadWithActivity } from '../repositories/leads';
import { reserveIds } from '../repositories/sequences';
import { Lead, type CreateLeadBody, type LeadActivity } from '../schemas/leads';

/** What a new lead holds before anything happens to it, and for the optional fields left out. */
const NEW_LEAD = {
  phone: null,
  suburb: null,
  businessName: null,
  socials: {},
  status: 'NEW',
  read: false,
  lastInquiryId: null,
  lastInquiryDate: null,
  unreadEmails: 0,
  unreadCalls: 0,
  unreadChatbotThreads: 0,
  unreadSMS: 0,
  unreadWebformSubmissions: 0,
  hasFlaggedInquiry: false,
} as const satisfies Partial<Lead>;

/** "Jane van der Berg" → Jane / "van der Berg"; explicit firstName/lastName win. The schema puts the fields in documented order. */
export function newLead({ name, ...profile }: CreateLeadBody, id: string, createdAt: string): Lead {
  const [first, ...rest] = (name ?? '').split(/\s+/).filter(Boolean);
  return v.parse(Lead, {
    ...NEW_LEAD,
    ...profile,
    id,
    firstName: profile.firstName ?? first ?? null,
    lastName: profile.lastName ?? (rest.length ? rest.join(' ') : null),
    createdAt,
  });
}

/** Records a lead with its LEAD_CREATED activity. */
export async function addLead(organizationId: string, lead: Lead, userId: string | null = null): Promise<Lead> {
  const activity: LeadActivity = {
    id: await reserveIds(organizationId, ACTIVITY_SEQUENCE),
    event: 'LEAD_CREATED',
    data: `Lead ${[lead.firstName, lead.lastName].filter(Boolean).join(' ')} created`,
    referenceId: null,
    userId,
    leadId: lead.id,
    createdAt: lead.createdAt,
  };
  await insertLeadWithActivity(organizationId, lead, activity);
  return lead;
}

export async function createLead(organizationId: string, body: CreateLeadBody): Promise<Lead> {
  const createdAt = new Date();
  return addLead(organizationId, newLead(body, newId('lead', createdAt), createdAt.toISOString()));
}

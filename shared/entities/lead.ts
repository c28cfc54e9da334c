import type { Lead, LeadActivity } from '../schemas/leads';
import { keys } from './keys';

export type LeadItem = Lead & { pk: string; sk: string; entity: 'LEAD'; organizationId: string };

export function toLeadItem(organizationId: string, lead: Lead): LeadItem {
  return { ...keys.lead(organizationId, lead.id), entity: 'LEAD', organizationId, ...lead };
}

export function fromLeadItem(item: Record<string, unknown>): Lead {
  const i = item as LeadItem;
  return {
    id: i.id,
    firstName: i.firstName ?? null,
    lastName: i.lastName ?? null,
    email: i.email ?? null,
    phone: i.phone ?? null,
    suburb: i.suburb ?? null,
    businessName: i.businessName ?? null,
    socials: i.socials ?? {},
    status: i.status,
    createdAt: i.createdAt,
    read: i.read ?? false,
    lastInquiryId: i.lastInquiryId ?? null,
    lastInquiryDate: i.lastInquiryDate ?? null,
    unreadEmails: i.unreadEmails ?? 0,
    unreadCalls: i.unreadCalls ?? 0,
    unreadChatbotThreads: i.unreadChatbotThreads ?? 0,
    unreadSMS: i.unreadSMS ?? 0,
    unreadWebformSubmissions: i.unreadWebformSubmissions ?? 0,
    hasFlaggedInquiry: i.hasFlaggedInquiry ?? false,
  };
}

export type ActivityItem = LeadActivity & { pk: string; sk: string; entity: 'ACTIVITY' };

export function toActivityItem(organizationId: string, activity: LeadActivity): ActivityItem {
  return { ...keys.activity(organizationId, activity.leadId, activity.id), entity: 'ACTIVITY', ...activity };
}

export function fromActivityItem(item: Record<string, unknown>): LeadActivity {
  const i = item as ActivityItem;
  return {
    id: i.id,
    event: i.event,
    data: i.data ?? null,
    referenceId: i.referenceId ?? null,
    userId: i.userId ?? null,
    leadId: i.leadId,
    createdAt: i.createdAt,
  };
}

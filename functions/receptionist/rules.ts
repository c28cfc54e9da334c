import { listAppointmentsPage } from '../appointments/store';
import { listInquiriesPage } from '../inquiries/store';
import { e164Of } from '../leads/rules';
import { isPhoneOptedOut, leadWithPhone } from '../leads/store';
import { getOrganization } from '../organization/store';
import { toE164 } from '../../shared/phone';
import { CALLER_ITEMS, type CallerResponse } from './schema';

/**
 * Who is calling, for a voice agent on a live call. An E.164 number (as voice platforms send the caller id) costs two
 * round trips: the organization, the lead with that phone and the phone's opt-out together, then the lead's
 * inquiries and appointments together. A national form first reads the organization's country: one more.
 */
export async function lookupCaller(organizationId: string, typed: string, now = new Date()): Promise<CallerResponse> {
  const organization = getOrganization(organizationId);
  // Read while a national form's country is looked up; its failure is reported where it is awaited below.
  organization.catch(() => undefined);
  const phone = toE164(typed, undefined) ?? (await e164Of(organizationId, typed, 'phone'));
  const [{ name, timezone, isOpenNow }, lead, phoneOptedOut] = await Promise.all([organization, leadWithPhone(organizationId, phone), isPhoneOptedOut(organizationId, phone)]);
  if (!lead) return { caller: { lead: null, openInquiries: [], upcomingAppointments: [], smsOptedOut: phoneOptedOut }, organization: { name, timezone, isOpenNow } };
  const [inquiries, appointments] = await Promise.all([
    listInquiriesPage(organizationId, { leadId: lead.id, page: 1, limit: CALLER_ITEMS }),
    // A few more than shown, as cancelled ones are listed too and left out here.
    listAppointmentsPage(organizationId, { leadId: lead.id, from: now.toISOString(), page: 1, limit: CALLER_ITEMS * 2 }),
  ]);
  return {
    caller: {
      lead,
      // Unread first; the list is newest first and the sort keeps that order within each.
      openInquiries: [...inquiries.items].sort((a, b) => Number(a.isRead) - Number(b.isRead)),
      upcomingAppointments: appointments.items.filter((appointment) => appointment.status !== 'CANCELLED').slice(0, CALLER_ITEMS),
      smsOptedOut: lead.smsOptedOut || phoneOptedOut,
    },
    organization: { name, timezone, isOpenNow },
  };
}

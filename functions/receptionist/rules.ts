import { listAppointmentsPage } from '../appointments/store';
import { listInquiriesPage } from '../inquiries/store';
import { e164Of } from '../leads/rules';
import { hasContact } from '../leads/entity';
import { claimedLeadIdOfPhone, getLead, isPhoneOptedOut } from '../leads/store';
import { getOrganizationHours } from '../organization/store';
import { toE164 } from '../../shared/phone';
import { CALLER_ITEMS, type CallerResponse } from './schema';

/**
 * Who is calling, for a voice agent on a live call. An E.164 number (as voice platforms send the caller id) costs two
 * round trips: the organization, the phone's claim (the lead that took it) and its opt-out together, then that lead
 * with its inquiries and appointments together; the lead counts only while it still has the phone. A national form
 * first reads the organization's country: one more.
 */
export async function lookupCaller(organizationId: string, typed: string, now = new Date()): Promise<CallerResponse> {
  const organization = getOrganizationHours(organizationId);
  // Read while a national form's country is looked up; its failure is reported where it is awaited below.
  organization.catch(() => undefined);
  const phone = toE164(typed, undefined) ?? (await e164Of(organizationId, typed, 'phone'));
  const [{ name, timezone, isOpenNow }, leadId, phoneOptedOut] = await Promise.all([organization, claimedLeadIdOfPhone(organizationId, phone), isPhoneOptedOut(organizationId, phone)]);
  const [lead, inquiries, appointments] = leadId
    ? await Promise.all([
        getLead(organizationId, leadId),
        listInquiriesPage(organizationId, { leadId, page: 1, limit: CALLER_ITEMS }),
        // A few more than shown, as cancelled ones are listed too and left out here.
        listAppointmentsPage(organizationId, { leadId, from: now.toISOString(), page: 1, limit: CALLER_ITEMS * 2 }),
      ])
    : [];
  if (!lead || !hasContact(lead, { kind: 'PHONE', value: phone })) {
    return { caller: { lead: null, openInquiries: [], upcomingAppointments: [], smsOptedOut: phoneOptedOut }, organization: { name, timezone, isOpenNow } };
  }
  return {
    caller: {
      lead,
      // Unread first; the list is newest first and the sort keeps that order within each.
      openInquiries: [...inquiries!.items].sort((a, b) => Number(a.isRead) - Number(b.isRead)),
      upcomingAppointments: appointments!.items.filter((appointment) => appointment.status !== 'CANCELLED').slice(0, CALLER_ITEMS),
      smsOptedOut: lead.smsOptedOut || phoneOptedOut,
    },
    organization: { name, timezone, isOpenNow },
  };
}

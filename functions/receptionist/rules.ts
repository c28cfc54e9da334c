import type { Appointment } from '../appointments/schema';
import { listAppointmentsPage } from '../appointments/store';
import { listInquiriesPage } from '../inquiries/list';
import { e164Of } from '../leads/phones';
import { hasContact } from '../leads/entity';
import { claimedLeadIdOfPhone, getLead, isPhoneOptedOut } from '../leads/store';
import { getOrganizationHours } from '../organization/store';
import { toE164 } from '#shared/phone';
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
  const phone = (await toE164(typed, undefined)) ?? (await e164Of(organizationId, typed, 'phone'));
  const [{ name, timezone, isOpenNow, nextOpenAt }, leadId, phoneOptedOut] = await Promise.all([organization, claimedLeadIdOfPhone(organizationId, phone), isPhoneOptedOut(organizationId, phone)]);
  const [lead, inquiries, appointments] = leadId
    ? await Promise.all([
        getLead(organizationId, leadId),
        listInquiriesPage(organizationId, { leadId, page: 1, limit: CALLER_ITEMS }),
        upcomingAppointmentsOf(organizationId, leadId, now),
      ])
    : [];
  if (!lead || !hasContact(lead, { kind: 'PHONE', value: phone })) {
    return { caller: { lead: null, openInquiries: [], upcomingAppointments: [], smsOptedOut: phoneOptedOut }, organization: { name, timezone, isOpenNow, nextOpenAt } };
  }
  return {
    caller: {
      lead,
      // Unread first; the list is newest first and the sort keeps that order within each.
      openInquiries: [...inquiries!.items].sort((a, b) => Number(a.isRead) - Number(b.isRead)),
      upcomingAppointments: appointments!,
      smsOptedOut: lead.smsOptedOut || phoneOptedOut,
    },
    organization: { name, timezone, isOpenNow, nextOpenAt },
  };
}

/** How many appointments a read of the caller's upcoming ones takes: a few more than shown, as ended ones are listed too. */
const UPCOMING_READ = CALLER_ITEMS * 2;

/**
 * The lead's next appointments still BOOKED, earliest first (one cancelled, completed or marked a no-show is not to
 * come). Ended ones stay in the list they are read from, so a lead who cancelled many has its booked ones further on: the pages after the first are read until enough
 * are found or none are left, in the same round trip as the rest of the lookup when the first page holds them.
 */
async function upcomingAppointmentsOf(organizationId: string, leadId: string, now: Date) {
  const upcoming: Appointment[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAppointmentsPage(organizationId, { leadId, from: now.toISOString(), page: 1, limit: UPCOMING_READ, cursor });
    upcoming.push(...page.items.filter((appointment) => appointment.status === 'BOOKED'));
    cursor = page.nextCursor ?? undefined;
  } while (upcoming.length < CALLER_ITEMS && cursor !== undefined);
  return upcoming.slice(0, CALLER_ITEMS);
}

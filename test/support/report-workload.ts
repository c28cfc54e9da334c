import { expect } from 'vitest';
import { localReceiptsApplied, LOCAL_UNREACHABLE_NUMBER } from '../../functions/sms/local-provider';
import type { Client, TestApi } from './api';
import { created } from './fixtures';
import { withSilentProvider } from './silent-sms';

/**
 * A mixed workload for the reports, made through the API as clients make it, and the figures the reports must answer
 * counted from what the API lists of the records, with this file's own local-date function.
 */

export const SYDNEY = 'Australia/Sydney';
export const localDate = (at: string) => new Intl.DateTimeFormat('en-CA', { timeZone: SYDNEY, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
export const dateAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
export const mondayOf = (date: string) => dateAfter(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
export const daysAgo = (days: number, hours = 0) => new Date(Date.now() - days * 86_400_000 - hours * 3_600_000).toISOString();

/** Every record of a list, page after page. */
export async function everyRecord(client: Client, path: string, key: string): Promise<any[]> {
  const records: any[] = [];
  for (let page = 1; ; page++) {
    const { body } = await client.get(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
    records.push(...body[key]);
    if (records.length >= body.totalCount) return records;
  }
}

const countBy = <T>(records: T[], keyOf: (record: T) => string, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, records.filter((record) => keyOf(record) === key).length]));
const sum = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 100) / 100;

/** A Sydney organization with one member, whose user books and sends SMS. */
export async function sydneyOrganization(api: TestApi) {
  const organization = await api.organization();
  expect((await organization.client.patch('/v1/organization', { timezone: SYDNEY })).status).toBe(200);
  const member = await created(organization.client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  return { ...organization, memberId: member.user.id as string };
}

export const callInquiry = (phone: string, createdAt: string, tag = 'GENERAL') => ({ source: 'CALL', tag, createdAt, lead: { phone }, data: { summary: 'Asked for a plumber.', startedAt: createdAt, duration: 120 } });
export const webForm = (email: string, createdAt: string, tag = 'QUOTE_REQUEST') => ({
  source: 'WEBFORM',
  tag,
  createdAt,
  lead: { email },
  data: { formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }], submittedAt: createdAt, pageUrl: 'https://example.com/contact' },
});

export async function appointment(client: Client, leadId: string, memberId: string, startsAt: string, { status, source }: { status?: string; source?: string } = {}) {
  const booked = await created(client, '/v1/appointments', 'appointment', { leadId, title: 'Blocked drain', startsAt, endsAt: new Date(Date.parse(startsAt) + 3_600_000).toISOString(), attendees: [{ userId: memberId }], ...(source ? { source } : {}) });
  if (status) expect((await client.patch(`/v1/appointments/${booked.id}`, { status })).status).toBe(200);
}

/** Each organization's SMS number: one organization owns a number. */
let nextSender = 77_001;

/**
 * SMS both ways: one delivered, one the carrier fails, one sent and never reported on (SENT), a reply, and a STOP
 * that opts its phone out.
 */
async function smsBothWays(api: TestApi, client: Client, memberId: string) {
  const sender = `+612999${nextSender++}`;
  expect((await client.patch('/v1/organization', { smsSenderId: sender })).status).toBe(200);
  const [fay, gus, hal] = [
    await created(client, '/v1/leads', 'lead', { name: 'Fay Lim', phone: '+61412345401' }),
    await created(client, '/v1/leads', 'lead', { name: 'Gus Hart', phone: LOCAL_UNREACHABLE_NUMBER }),
    await created(client, '/v1/leads', 'lead', { name: 'Hal Moss', phone: '+61412345403' }),
  ];
  const send = async (leadId: string) => (await created(client, '/v1/sms', 'sms', { userId: memberId, leadId, message: 'We can come Tuesday at 10.' })).id as string;
  const reported = [await send(fay.id), await send(gus.id)];
  await withSilentProvider(() => send(hal.id));
  await localReceiptsApplied(reported);
  const reply = (from: string, body: string) => fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to: sender, body }) });
  expect((await reply('+61412345401', 'Tuesday works')).status).toBe(202);
  expect((await reply('+61412345403', 'STOP')).status).toBe(202);
}

/**
 * A mixed workload over the last two weeks: leads with values won and lost, calls and web forms, bookings and their
 * endings, SMS both ways. What does not depend on another write is sent together; each lead's own changes in order.
 */
export async function workload(api: TestApi, client: Client, memberId: string) {
  const [ava, ben] = await Promise.all([
    created(client, '/v1/leads', 'lead', { name: 'Ava Chen', email: 'ava@example.com', value: 1200.5 }),
    created(client, '/v1/leads', 'lead', { name: 'Ben Ito', email: 'ben@example.com', value: 300 }),
    created(client, '/v1/leads', 'lead', { name: 'Cleo Park', email: 'cleo@example.com', value: 80.25 }),
  ]);
  const [, , , , dana] = await Promise.all([
    created(client, '/v1/inquiries', 'inquiry', webForm('ava@example.com', daysAgo(0, 1))),
    created(client, '/v1/inquiries', 'inquiry', webForm('ben@example.com', daysAgo(0, 2), 'BOOKING')),
    created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345102', daysAgo(9), 'EMERGENCY')),
    // Two calls from one phone: the second finds the lead the first made.
    (async () => {
      await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345101', daysAgo(3)));
      await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345101', daysAgo(1), 'FOLLOW_UP'));
    })(),
    // A lead who asked a moment ago and is contacted at once: within 5 minutes.
    created(client, '/v1/inquiries', 'inquiry', webForm('dana@example.com', new Date().toISOString(), 'GENERAL')),
  ]);
  await Promise.all([
    (async () => expect((await client.patch(`/v1/leads/${dana.leadId}`, { status: 'CONTACTED', value: 450 })).status).toBe(200))(),
    (async () => {
      for (const status of ['CONTACTED', 'QUOTED', 'WON']) expect((await client.patch(`/v1/leads/${ava.id}`, { status })).status).toBe(200);
      await appointment(client, ava.id, memberId, daysAgo(2), { status: 'COMPLETED' });
      await appointment(client, ava.id, memberId, daysAgo(4), { status: 'CANCELLED', source: 'CALL' });
    })(),
    (async () => {
      for (const status of ['QUALIFIED', 'LOST']) expect((await client.patch(`/v1/leads/${ben.id}`, { status, ...(status === 'LOST' ? { lostReason: 'PRICE' } : {}) })).status).toBe(200);
      await appointment(client, ben.id, memberId, daysAgo(5), { status: 'NO_SHOW' });
      await appointment(client, ben.id, memberId, daysAgo(-3), { source: 'CALL' });
      // Cancelled today, three weeks before it was to start: a cancellation counts on the day it was made.
      await appointment(client, ben.id, memberId, daysAgo(-21), { status: 'CANCELLED' });
    })(),
  ]);
  await smsBothWays(api, client, memberId);
}

/** The moments a lead was contacted, from its records: each move off NEW (its timeline says when) and each SMS sent to it. */
async function contactsOf(client: Client, leadId: string, outbound: any[]) {
  const activities = await everyRecord(client, `/v1/leads/${leadId}/activities`, 'activities');
  const movesOffNew = activities.filter((activity) => activity.event === 'STATUS_CHANGED' && /^Status changed from NEW /.test(activity.data)).map((activity) => activity.createdAt as string);
  return [...movesOffNew, ...outbound.filter((message) => message.leadId === leadId).map((message) => message.createdAt as string)];
}

/**
 * Speed to lead from the records: from each first inquiry to the lead's first contact at or after it, in whole seconds
 * rounded up; a lead not contacted yet is not measured. The median and p90 are the shortest waits within which half
 * and 90 % of the leads were contacted.
 */
async function secondsToContact(client: Client, firstInquiries: any[], outbound: any[]) {
  // Each lead's timeline read at once: the waits are sorted after.
  const waits = await Promise.all(
    firstInquiries.map(async (inquiry) => {
      const contacts = (await contactsOf(client, inquiry.leadId, outbound)).filter((at) => at >= inquiry.createdAt).map((at) => Date.parse(at));
      return contacts.length ? [Math.ceil((Math.min(...contacts) - Date.parse(inquiry.createdAt)) / 1000)] : [];
    }),
  );
  const sorted = waits.flat().sort((a, b) => a - b);
  const within = (share: number) => (sorted.length === 0 ? null : sorted[Math.ceil(share * sorted.length) - 1]!);
  return { leads: sorted.length, within5Minutes: sorted.filter((seconds) => seconds <= 300).length, medianSeconds: within(0.5), p90Seconds: within(0.9) };
}

const STAGES = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON'];

/** How many of the leads reached each stage of the funnel, from their timelines: the statuses each was made with and moved through. */
async function reachedStages(client: Client, leads: any[]) {
  // Each lead's timeline read at once: only how many reached each stage is counted.
  const furthest = await Promise.all(
    leads.map(async (lead) => {
      const activities = await everyRecord(client, `/v1/leads/${lead.id}/activities`, 'activities');
      const statuses = activities.flatMap((activity) => {
        if (activity.event === 'LEAD_CREATED') return [/ created as ([A-Z]+)$/.exec(activity.data)?.[1] ?? 'NEW'];
        return activity.event === 'STATUS_CHANGED' ? (/^Status changed from ([A-Z]+) to ([A-Z]+)$/.exec(activity.data)?.slice(1) ?? []) : [];
      });
      return Math.max(...statuses.map((status) => STAGES.indexOf(status)));
    }),
  );
  return STAGES.map((_, stage) => furthest.filter((reached) => reached >= stage).length);
}

/** The figures the reports must answer over [from, to], counted from what the API lists of the records. */
export async function countedFromRecords(client: Client, from: string, to: string) {
  const inRange = (at: string | null | undefined) => typeof at === 'string' && localDate(at) >= from && localDate(at) <= to;
  const [leads, inquiries, appointments, messages] = await Promise.all(['leads', 'inquiries', 'appointments', 'sms'].map((path) => everyRecord(client, `/v1/${path}`, path === 'sms' ? 'messages' : path)));
  const cohort = leads!.filter((lead) => inRange(lead.createdAt));
  const statuses = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST'];
  // The organization started an SMS inquiry whose thread's first message it sent, and a call its agent made to the
  // lead (the call's direction, in the inquiry's own read); the lead started every other.
  const firstMessage = new Map<string, any>();
  for (const message of [...messages!].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))) firstMessage.set(message.inquiryId, message);
  const calls = inquiries!.filter((inquiry) => inquiry.source === 'CALL');
  const callsOut = new Set((await Promise.all(calls.map(async ({ id }) => (await client.get(`/v1/inquiries/${id}`)).body))).filter((inquiry) => inquiry.data.direction === 'AI_TO_LEAD').map(({ id }) => id));
  const byBusiness = (inquiry: any) => (inquiry.source === 'SMS' && firstMessage.get(inquiry.id)?.direction === 'OUTBOUND') || callsOut.has(inquiry.id);
  // A lead's first inquiry is the earliest it started itself.
  const firstInquiries = new Map<string, any>();
  for (const inquiry of inquiries!.filter((each) => !byBusiness(each))) if (!(firstInquiries.get(inquiry.leadId)?.createdAt <= inquiry.createdAt)) firstInquiries.set(inquiry.leadId, inquiry);
  const firstSource = new Map([...firstInquiries].map(([leadId, inquiry]) => [leadId, inquiry.source]));
  const sources = ['CALL', 'EMAIL', 'CHATBOT', 'SMS', 'WEBFORM'];
  const [won, lost, received, starting, sms] = [leads!.filter((lead) => inRange(lead.wonAt)), leads!.filter((lead) => inRange(lead.lostAt)), inquiries!.filter((inquiry) => inRange(inquiry.createdAt)), appointments!.filter((each) => inRange(each.startsAt)), messages!.filter((message) => inRange(message.createdAt))];
  const outbound = sms.filter((message) => message.direction === 'OUTBOUND');
  const [startedByLead, startedByBusiness] = [received.filter((inquiry) => !byBusiness(inquiry)), received.filter(byBusiness)];
  return {
    leads: {
      created: cohort.length,
      bySource: { ...countBy(cohort, (lead) => firstSource.get(lead.id) ?? 'NONE', sources), NONE: cohort.filter((lead) => !firstSource.has(lead.id)).length },
      byStatus: countBy(cohort, (lead) => lead.status, statuses),
      pipelineValue: Object.fromEntries(statuses.map((status) => [status, sum(cohort.filter((lead) => lead.status === status).map((lead) => lead.value ?? 0))])),
      won: { count: won.length, value: sum(won.map((lead) => lead.value ?? 0)) },
      lost: { count: lost.length, reasons: { ...countBy(lost, (lead) => lead.lostReason, ['PRICE', 'TIMING', 'COMPETITOR', 'NO_RESPONSE', 'NOT_A_FIT']), OTHER: 0 } },
      conversion: cohort.length === 0 ? null : Math.round((cohort.filter((lead) => lead.status === 'WON').length / cohort.length) * 10_000) / 10_000,
    },
    inquiries: {
      total: received.length,
      bySource: countBy(received, (inquiry) => inquiry.source, sources),
      byTag: countBy(received, (inquiry) => inquiry.tag, ['GENERAL', 'QUOTE_REQUEST', 'BOOKING', 'EMERGENCY', 'FOLLOW_UP', 'FLAGGED']),
      startedByLead: { total: startedByLead.length, bySource: countBy(startedByLead, (inquiry) => inquiry.source, sources) },
      startedByBusiness: {
        total: startedByBusiness.length,
        bySource: countBy(startedByBusiness, (inquiry) => inquiry.source, sources),
        byAutomation: startedByBusiness.filter((inquiry) => firstMessage.get(inquiry.id)?.automationRunId !== undefined).length,
      },
    },
    appointments: {
      booked: appointments!.filter((each) => inRange(each.createdAt)).length,
      bookedFromCalls: appointments!.filter((each) => inRange(each.createdAt) && each.source === 'CALL').length,
      // A cancellation on the day it was made: an ended appointment is never changed again, so its updatedAt.
      cancelled: appointments!.filter((each) => each.status === 'CANCELLED' && inRange(each.updatedAt)).length,
      completed: starting.filter((each) => each.status === 'COMPLETED').length,
      noShows: starting.filter((each) => each.status === 'NO_SHOW').length,
    },
    sms: {
      sent: outbound.filter((message) => ['SENT', 'DELIVERED'].includes(message.status)).length,
      delivered: outbound.filter((message) => message.status === 'DELIVERED').length,
      failed: outbound.filter((message) => message.status === 'FAILED').length,
      received: sms.filter((message) => message.direction === 'INBOUND').length,
      // Every opt-out of this workload is today's: the leads say whether their phone opted out, not when.
      optOuts: leads!.filter((lead) => lead.smsOptedOut).length,
    },
    // Calls received per week, by the Monday of their local date.
    weeklyCalls: countBy(received.filter((inquiry) => inquiry.source === 'CALL'), (inquiry) => mondayOf(localDate(inquiry.createdAt)), [...new Set(received.map((inquiry) => mondayOf(localDate(inquiry.createdAt))))]),
    speedToLead: await secondsToContact(client, [...firstInquiries.values()].filter((inquiry) => inRange(inquiry.createdAt)), outbound),
    reached: await reachedStages(client, cohort),
    lostNow: cohort.filter((lead) => lead.status === 'LOST').length,
  };
}

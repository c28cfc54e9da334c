import { answer, api, listUntil } from '../api';
import type { Webhook } from '../types';

/** A count for Today; `atLeast` when the lists read stopped before the end, so the count is a floor. */
export interface Count {
  count: number;
  atLeast: boolean;
}

const DAY_MS = 86_400_000;

/** Whether one ISO time is after another (as instants: the API's and the browser's texts may differ in their digits). */
export const after = (time: string, than: string) => Date.parse(time) > Date.parse(than);
/** A quote no one has touched for this long is going quiet. */
export const QUIET_DAYS = 7;
/** How far back Today looks for runs a reply stopped. */
export const STOPPED_DAYS = 7;

const LAST_VISIT = 'console.lastVisit';
const THIS_VISIT_SINCE = 'console.visitSince';

/**
 * When the owner last looked, kept in localStorage; this tab keeps the time it read (sessionStorage), so going back to
 * Today in the same visit counts from the same moment. A first visit counts the last day.
 */
export function lastVisit(): string {
  try {
    const kept = sessionStorage.getItem(THIS_VISIT_SINCE);
    if (kept) return kept;
    const since = localStorage.getItem(LAST_VISIT) ?? new Date(Date.now() - DAY_MS).toISOString();
    sessionStorage.setItem(THIS_VISIT_SINCE, since);
    localStorage.setItem(LAST_VISIT, new Date().toISOString());
    return since;
  } catch {
    // Storage refused (a private window): count the last day.
    return new Date(Date.now() - DAY_MS).toISOString();
  }
}

/** The inquiries customers started since the last visit (not the business's own first texts): the list's exact count of them, from a page of one. */
export async function newInquiries(since: string, signal: AbortSignal): Promise<Count> {
  const page = await answer(api.GET('/v1/inquiries', { params: { query: { createdSince: since, startedBy: 'LEAD', limit: 1 } }, signal }));
  return { count: page.totalCount, atLeast: false };
}

/** The unread calls of an outcome (the receptionist missed or transferred them): the list's exact count, from a page of one. */
export async function unreadCalls(callOutcome: 'MISSED' | 'TRANSFERRED', signal: AbortSignal): Promise<Count> {
  const page = await answer(api.GET('/v1/inquiries', { params: { query: { callOutcome, isRead: false, limit: 1 } }, signal }));
  return { count: page.totalCount, atLeast: false };
}

export const quietSince = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

/** The quotes gone quiet (QUOTED QUIET_DAYS ago or more, and QUOTED since): the list's exact count, from a page of one. */
export async function quietQuotes(signal: AbortSignal): Promise<Count> {
  const page = await answer(api.GET('/v1/leads', { params: { query: { status: 'QUOTED', statusChangedBefore: quietSince(QUIET_DAYS), limit: 1 } }, signal }));
  return { count: page.totalCount, atLeast: false };
}

/** The list of the runs a lead's reply stopped in the last STOPPED_DAYS, of every automation, the latest to stop first, each with its lead. */
const stoppedByReply = (limit: number, signal: AbortSignal) =>
  answer(api.GET('/v1/automation-runs', { params: { query: { stoppedReason: 'lead.replied', stoppedSince: quietSince(STOPPED_DAYS), expand: 'lead', limit } }, signal }));

/** The runs a lead's reply stopped lately, of every automation, the latest to stop first (the first 100). */
export async function runsStoppedByReply(signal: AbortSignal) {
  const [page, { items: automations }] = await Promise.all([stoppedByReply(100, signal), listUntil((limit, cursor) => api.GET('/v1/automations', { params: { query: { limit, cursor } }, signal }), 'automations')]);
  return { runs: page.runs, automations, complete: page.nextCursor === null };
}

/** How many runs a reply stopped lately: the list's exact count, from a page of one. */
export async function stoppedOnReply(signal: AbortSignal): Promise<Count> {
  const page = await stoppedByReply(1, signal);
  return { count: page.totalCount, atLeast: false };
}

/** The holds Today shows: the live ones, the one to expire first first. */
export const HOLDS_SHOWN = 20;

/**
 * The slots held for callers right now, not yet booked (each lasts minutes): the list's first page and exact count,
 * and the names of the members they hold (read only when there are holds).
 */
export async function liveHolds(signal: AbortSignal) {
  const page = await answer(api.GET('/v1/availability/holds', { params: { query: { limit: HOLDS_SHOWN } }, signal }));
  const members = page.holds.length ? (await listUntil((limit, cursor) => api.GET('/v1/organization/members', { params: { query: { limit, cursor } }, signal }), 'members')).items : [];
  const memberNames = new Map(members.map((member) => [member.id, `${member.firstName} ${member.lastName}`.trim()]));
  return { holds: page.holds, count: { count: page.totalCount, atLeast: false }, memberNames };
}

/** Failing: the service disabled it for its failures, or, still on, every delivery attempt since a time has failed. */
export const isFailing = (webhook: Webhook): boolean =>
  webhook.disabledReason === 'FAILING' || webhook.disabledReason === 'GONE' || (webhook.isEnabled && webhook.failingSince !== null);

/** The failing webhooks: the organization's subscriptions are few (at most 16), so one page holds them all. */
export async function failingWebhooks(signal: AbortSignal): Promise<Count> {
  const page = await answer(api.GET('/v1/webhooks', { params: { query: { limit: 100 } }, signal }));
  return { count: page.webhooks.filter(isFailing).length, atLeast: page.nextCursor !== null };
}

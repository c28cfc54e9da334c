import type { ItemChange } from '#shared/resource';
import { queryAll, type PageSource } from '#shared/store/query-page';
import { leadKeys } from '../leads/entity';
import { inquiryKeys } from '../inquiries/entity';
import { appointmentKeys } from '../appointments/entity';
import { automationKeys } from '../automations/entity';
import { runKeys } from '../automations/runs/entity';
import { COUNTED, contributions, difference, type Contribution } from './contributions';
import { factContributions, mergeFacts, NO_FACTS, type LeadFacts } from './facts';
import type { Totals } from './figures';

type Item = Record<string, unknown>;

/** A key range of the table or of an index, read whole. */
const whole = (source: (organizationId: string) => PageSource) => (organizationId: string) => queryAll(source(organizationId));

/**
 * Runs live in a partition each, listed per automation (gsi1): the organization's automations, then each one's runs.
 * Runs of a deleted automation are found by none of them (docs/decisions/reports.md).
 */
async function runsOf(organizationId: string): Promise<Item[]> {
  const automations = await queryAll(automationKeys.automations(organizationId), ['id']);
  const runs = await Promise.all(automations.map(({ id }) => queryAll(runKeys.runsOfAutomation(organizationId, String(id)))));
  return runs.flat();
}

/**
 * Where each kind of record the consumer counts is, for one organization, read whole. A kind counted
 * (./contributions.ts COUNTED) and not read here would be left out of every rebuild, so this module refuses to load
 * without it.
 */
const RECORDS: Readonly<Record<string, (organizationId: string) => Promise<Item[]>>> = {
  LEAD: whole((o) => leadKeys.leads(o)),
  INQUIRY: whole((o) => ({ index: 'gsi1', pk: inquiryKeys.inquiryIndexes(o, { id: '', source: '', leadId: '' }).gsi1pk })),
  SMS_MESSAGE: whole((o) => ({ index: 'gsi2', pk: inquiryKeys.smsMessageIndexes(o, { id: '', status: '', leadId: '', threadId: '' }).gsi2pk })),
  APPOINTMENT: whole((o) => ({ index: 'gsi1', pk: appointmentKeys.appointmentIndexes(o, { id: '', leadId: '', startsAt: '' }).gsi1pk })),
  SMS_OPT_OUT: whole((o) => ({ pk: leadKeys.smsOptOut(o, '').pk, skPrefix: leadKeys.smsOptOut(o, '').sk })),
  AUTOMATION_RUN: runsOf,
};
const unread = Object.keys(COUNTED).filter((entity) => !RECORDS[entity]);
if (unread.length) throw new Error(`The reports' rebuild reads no ${unread.join(', ')} records: say where they are in functions/reports/recount.ts`);

/** Lead reads at once: one Query per lead for its status moves. */
const LEADS_AT_ONCE = 8;

/** One status move of a lead, as its STATUS_CHANGED activity recorded it (at the lead's updatedAt of the move). */
interface StatusMove {
  from: string;
  to: string;
  at: string;
}

const MOVE_TEXT = /^Status changed from ([A-Z_]+) to ([A-Z_]+)$/;

/** A lead's status moves, oldest first: the statuses the activity keeps, or, on an activity older than them, its text. */
async function statusMoves(organizationId: string, leadId: string): Promise<StatusMove[]> {
  const activities = await queryAll(leadKeys.activities(organizationId, leadId), ['event', 'data', 'fromStatus', 'toStatus', 'createdAt']);
  return activities.flatMap((activity) => {
    if (activity.event !== 'STATUS_CHANGED') return [];
    const [, from, to] = MOVE_TEXT.exec(String(activity.data)) ?? [];
    const move = { from: activity.fromStatus ?? from, to: activity.toStatus ?? to, at: String(activity.createdAt) };
    return typeof move.from === 'string' && typeof move.to === 'string' ? [move as StatusMove] : [];
  });
}

/**
 * The changes a lead's facts were merged from, as the stream delivered them: the lead made with its first status, each
 * status move, its inquiries and SMS messages made. Merged by the consumer's own mergeFacts, whose merge is
 * commutative, so the order they are listed in does not matter.
 */
function factsOf(lead: Item, moves: StatusMove[], records: [entity: string, item: Item][]): LeadFacts {
  const changes: [string, ItemChange][] = [
    ['LEAD', { kind: 'INSERT', newItem: { ...lead, status: moves[0]?.from ?? lead.status } }],
    ...moves.map(({ from, to, at }): [string, ItemChange] => ['LEAD', { kind: 'MODIFY', oldItem: { ...lead, status: from }, newItem: { ...lead, status: to, updatedAt: at } }]),
    ...records.map(([entity, item]): [string, ItemChange] => [entity, { kind: 'INSERT', newItem: item }]),
  ];
  return changes.reduce((facts, [entity, change]) => mergeFacts(facts, entity, change), NO_FACTS);
}

/** Every lead's facts, from its record, its status moves and its inquiries' and messages' records. */
async function leadFacts(organizationId: string, records: ReadonlyMap<string, Item[]>): Promise<Map<string, LeadFacts>> {
  const leads = records.get('LEAD') ?? [];
  const ofLead = Map.groupBy(
    ['INQUIRY', 'SMS_MESSAGE'].flatMap((entity) => (records.get(entity) ?? []).map((item): [string, Item] => [entity, item])),
    ([, item]) => String(item.leadId),
  );
  const facts = new Map<string, LeadFacts>();
  for (let start = 0; start < leads.length; start += LEADS_AT_ONCE) {
    const some = leads.slice(start, start + LEADS_AT_ONCE);
    const moves = await Promise.all(some.map((lead) => statusMoves(organizationId, String(lead.id))));
    some.forEach((lead, i) => facts.set(String(lead.id), factsOf(lead, moves[i]!, ofLead.get(String(lead.id)) ?? [])));
  }
  return facts;
}

/** What the counters of an organization should be, from its records: each day's totals, and each lead's facts. */
export interface Recount {
  days: Map<string, Totals>;
  facts: Map<string, LeadFacts>;
}

/**
 * Counts an organization's records again, through the consumer's own contributions and facts, so a rebuild and the
 * live counting cannot disagree: every record of every counted kind, one Query per lead for its status moves and one
 * per automation for its runs.
 */
export async function recount(organizationId: string, timezone: string): Promise<Recount> {
  const kinds = Object.keys(RECORDS);
  const read = await Promise.all(kinds.map(async (entity) => (await RECORDS[entity]!(organizationId)).filter((item) => item.entity === entity)));
  const records = new Map(kinds.map((entity, i) => [entity, read[i]!]));
  const facts = await leadFacts(organizationId, records);
  const all: Contribution[] = [
    ...[...records].flatMap(([entity, items]) => items.flatMap((item) => contributions(entity, item, timezone))),
    ...[...facts.values()].flatMap((each) => factContributions(each, timezone)),
  ];
  const days = new Map<string, Totals>();
  for (const { day, attr, amount } of difference(all, [])) days.set(day, { ...days.get(day), [attr]: amount });
  return { days, facts };
}

import type { ItemChange } from '#shared/resource';
import { METRIC_ATTRIBUTES } from './catalog';
import { FUNNEL_STAGES, reachedAttribute, speedAttribute } from './metrics';
import { localDay, type Contribution } from './contributions';
import { startedByLead } from '../inquiries/started-by';

type Item = Record<string, unknown>;

/**
 * A lead's history as the reports need it and no single record holds: when the lead was made, its first inquiry, its
 * earliest outbound contacts and the furthest stage it reached. Every field merges commutatively (earliest, furthest,
 * a bounded sorted list), so the records of one lead, arriving from several shards in any order, give the same facts.
 */
export interface LeadFacts {
  createdAt?: string;
  firstInquiryAt?: string;
  firstInquirySource?: string;
  /** The earliest outbound contacts, sorted, at most MAX_CONTACTS. */
  contactTimes: string[];
  /** The index in FUNNEL_STAGES of the furthest stage reached; -1 before any. */
  maxStage: number;
}

/** Contacts kept: a lead contacted more often than this before its first inquiry would lose its first answer (documented). */
export const MAX_CONTACTS = 8;

export const NO_FACTS: LeadFacts = { contactTimes: [], maxStage: -1 };

const stageOf = (status: unknown) => FUNNEL_STAGES.indexOf(status as (typeof FUNNEL_STAGES)[number]);
const earliest = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a <= b ? a : b);

/** What one record tells of its lead's history, as facts of their own. */
function evidenceOf(entity: string, { oldItem, newItem }: ItemChange): LeadFacts {
  const facts: LeadFacts = { ...NO_FACTS, contactTimes: [] };
  if (!newItem) return facts;
  if (entity === 'LEAD') {
    facts.createdAt = newItem.createdAt as string;
    facts.maxStage = Math.max(stageOf(newItem.status), stageOf(oldItem?.status));
    // A move off NEW is the lead being contacted, at the moment of the move; a lead made past NEW was contacted when it
    // was made (its createdAt: the write's own time is not kept, and rebuild must find the same moment).
    if (newItem.status !== 'NEW' && oldItem === undefined) facts.contactTimes.push(String(newItem.createdAt));
    if (newItem.status !== 'NEW' && oldItem?.status === 'NEW') facts.contactTimes.push(String(newItem.updatedAt));
  }
  if (entity === 'INQUIRY' && !oldItem) {
    // The lead's first inquiry is the earliest it started itself: a thread the organization opened by texting first
    // asked nothing, so it is neither the lead's source nor where its speed to lead starts.
    if (startedByLead(newItem)) Object.assign(facts, { firstInquiryAt: newItem.createdAt, firstInquirySource: newItem.source });
    if (newItem.source === 'CALL' && newItem.callDirection === 'AI_TO_LEAD') facts.contactTimes.push(String(newItem.createdAt));
  }
  if (entity === 'SMS_MESSAGE' && !oldItem && newItem.direction === 'OUTBOUND') facts.contactTimes.push(String(newItem.createdAt));
  return facts;
}

/**
 * Whether a record can move its lead's facts, so is worth their read: a lead's insert, delete or status move, an
 * inquiry the lead started (the earliest is its first, whatever the organization texted before), an outbound call or
 * SMS. A lead's other updates (an inquiry's unread count) tell nothing its status's own record did not.
 */
export function feedsFacts(entity: string, change: ItemChange): boolean {
  if (entity === 'LEAD') return change.kind !== 'MODIFY' || change.oldItem?.status !== change.newItem?.status;
  const evidence = evidenceOf(entity, change);
  return evidence.firstInquiryAt !== undefined || evidence.contactTimes.length > 0;
}

/** The lead a counted record is of. */
export const leadIdOf = (entity: string, item: Item): string | undefined => (typeof (entity === 'LEAD' ? item.id : item.leadId) === 'string' ? String(entity === 'LEAD' ? item.id : item.leadId) : undefined);

/** Two sets of facts as one: commutative and idempotent, so order and repetition do not matter. */
export function mergeFactsWith(a: LeadFacts, b: LeadFacts): LeadFacts {
  const first = earliest(a.firstInquiryAt, b.firstInquiryAt);
  const source = [a, b].filter((facts) => facts.firstInquiryAt === first && facts.firstInquirySource !== undefined).map((facts) => facts.firstInquirySource!).sort()[0];
  return {
    ...(earliest(a.createdAt, b.createdAt) ? { createdAt: earliest(a.createdAt, b.createdAt) } : {}),
    ...(first ? { firstInquiryAt: first, firstInquirySource: source } : {}),
    contactTimes: [...new Set([...a.contactTimes, ...b.contactTimes])].sort().slice(0, MAX_CONTACTS),
    maxStage: Math.max(a.maxStage, b.maxStage),
  };
}

/** The lead's facts after one more of its records. */
export const mergeFacts = (seen: LeadFacts, entity: string, change: ItemChange): LeadFacts => mergeFactsWith(seen, evidenceOf(entity, change));

/** The seconds from the first inquiry to the first contact at or after it; undefined while there is none. */
export function speedToLeadSeconds(facts: LeadFacts): number | undefined {
  const first = facts.firstInquiryAt;
  const contact = first === undefined ? undefined : facts.contactTimes.find((at) => at >= first);
  return first === undefined || contact === undefined ? undefined : (Date.parse(contact) - Date.parse(first)) / 1000;
}

/** What a lead's facts contribute: its first inquiry's source and its furthest stage on its created day, its speed to lead on its first inquiry's day. */
export function factContributions(facts: LeadFacts | undefined, timezone: string): Contribution[] {
  if (!facts) return [];
  const contributions: Contribution[] = [];
  if (facts.createdAt) {
    const day = localDay(facts.createdAt, timezone);
    const bySource = METRIC_ATTRIBUTES[`leads.bySource.${facts.firstInquirySource}`];
    if (bySource) contributions.push({ day, attr: bySource, amount: 1 });
    if (facts.maxStage >= 0) contributions.push({ day, attr: reachedAttribute(FUNNEL_STAGES[facts.maxStage]!), amount: 1 });
  }
  const seconds = speedToLeadSeconds(facts);
  if (seconds !== undefined) contributions.push({ day: localDay(facts.firstInquiryAt!, timezone), attr: speedAttribute(seconds), amount: 1 });
  return contributions;
}

/** Whether two sets of facts are the same (nothing to write). */
export const sameFacts = (a: LeadFacts, b: LeadFacts) => JSON.stringify(mergeFactsWith(a, NO_FACTS)) === JSON.stringify(mergeFactsWith(b, NO_FACTS));

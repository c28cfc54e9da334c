import { config } from '#shared/config';
import { now } from '#shared/ids';
import { batchGetItems } from '#shared/store/batch-get';
import { queryAll } from '#shared/store/query-page';
import { transact, type TransactWrite } from '#shared/store/transact';
import { getOrganizationTimezone } from '../organization/store';
import { REPORT_ENTITIES, dayOfReportKey, reportKeys } from './entity';
import { storedFactsOf, writeFacts, type StoredFacts } from './count-store';
import { sameFacts, type LeadFacts } from './facts';
import { money, type Totals } from './figures';
import { COUNTED_METRICS, DAY_ATTRIBUTES, isDayAttribute } from './catalog';
import { FUNNEL_STAGES, reachedAttribute, speedSecondsOf } from './metrics';
import { recount } from './recount';

/** One counter a rebuild moved: on which local day, by the metric's name, from what to what (money as decimals). */
export interface CounterChange {
  day: string;
  metric: string;
  before: number;
  after: number;
}

export interface RebuildReport {
  organizationId: string;
  timezone: string;
  dryRun: boolean;
  changes: CounterChange[];
  daysChanged: number;
  daysUnchanged: number;
  factsRewritten: number;
  /** Days or leads the consumer moved while the rebuild wrote, every attempt: run it again for them. */
  runAgain: string[];
  said: string;
}

/** Attempts of a rebuild the consumer wrote into meanwhile, each counting every record again. */
const ATTEMPTS = 3;

/** The name a day attribute is shown by: its metric's, or for the funnel's stages and the speed-to-lead waits, what it holds. */
const NAMES: Readonly<Record<string, { metric: string; cents: boolean }>> = Object.fromEntries([
  ...COUNTED_METRICS.map(({ metric, attribute, unit }) => [attribute, { metric, cents: unit === 'cents' }]),
  ...FUNNEL_STAGES.map((stage) => [reachedAttribute(stage), { metric: `leads.furthestStage.${stage}`, cents: false }]),
]);
const nameOf = (attribute: string) => NAMES[attribute] ?? { metric: `speedToLead.contactedAfter${speedSecondsOf(attribute)}Seconds`, cents: false };

/** The attributes of some days' counters, in the catalog's order, the speed-to-lead waits last, shortest first. */
const attributesOf = (...days: Totals[]) => {
  const held = new Set(days.flatMap((totals) => Object.keys(totals)));
  const waits = [...held].filter((attribute) => speedSecondsOf(attribute) !== undefined).sort((a, b) => speedSecondsOf(a)! - speedSecondsOf(b)!);
  return [...DAY_ATTRIBUTES.filter((attribute) => held.has(attribute)), ...waits];
};

/** A day item as stored: its counters and the version its rewrite is conditional on. */
interface StoredDay {
  totals: Totals;
  v: number;
}

/** Every day item of the organization, by date, read consistently. */
async function readDays(organizationId: string): Promise<Map<string, StoredDay>> {
  const { pk } = reportKeys.reportDay(organizationId, '');
  const items = await queryAll({ pk, skPrefix: 'DAY#', consistentRead: true });
  return new Map(items.map((item) => [dayOfReportKey(String(item.sk)), { v: Number(item.v ?? 0), totals: Object.fromEntries(Object.entries(item).flatMap(([name, value]) => (isDayAttribute(name) && typeof value === 'number' && value !== 0 ? [[name, value]] : []))) }]));
}

/** The counters that differ between what a day holds and what it should, by metric. */
function changesOf(day: string, before: Totals, after: Totals): CounterChange[] {
  return attributesOf(before, after).flatMap((attribute) => {
    const [was, is] = [before[attribute] ?? 0, after[attribute] ?? 0];
    if (was === is) return [];
    const { metric, cents } = nameOf(attribute);
    return [{ day, metric, before: cents ? money(was) : was, after: cents ? money(is) : is }];
  });
}

/** The day item rewritten whole, on condition the consumer has not written it since it was read; deleted when it should hold nothing. */
function rewriteDay(organizationId: string, day: string, totals: Totals, seen: StoredDay | undefined, onMoved: () => Error): TransactWrite {
  const key = reportKeys.reportDay(organizationId, day);
  const condition = seen ? { ConditionExpression: '#v = :seen', ExpressionAttributeNames: { '#v': 'v' }, ExpressionAttributeValues: { ':seen': seen.v } } : { ConditionExpression: 'attribute_not_exists(pk)' };
  if (Object.keys(totals).length === 0) return { item: { Delete: { TableName: config.tableName, Key: key, ...condition } }, onConditionFailed: onMoved };
  const item = { ...key, entity: REPORT_ENTITIES.day, ...totals, v: (seen?.v ?? 0) + 1, updatedAt: now() };
  return { item: { Put: { TableName: config.tableName, Item: item, ...condition } }, onConditionFailed: onMoved };
}

class MovedMeanwhile extends Error {}

/** How far a rebuild has got: counting the records (no total yet), then writing what differs, `done` of `total`. */
export type RebuildProgress = { phase: 'COUNTING' } | { phase: 'WRITING'; done: number; total: number };

/** Told of each step of a rebuild's first attempt (its later ones redo only what the consumer moved meanwhile). */
export type OnRebuildProgress = (progress: RebuildProgress) => Promise<void>;

/** Each write alone, `onWritten` told after each; what the consumer moved meanwhile (a refused condition) is named, to be counted again. */
async function writeEach(writes: [name: string, write: (onMoved: () => Error) => TransactWrite][], onWritten?: (done: number) => Promise<void>): Promise<string[]> {
  const moved: string[] = [];
  for (const [at, [name, write]] of writes.entries()) {
    await transact([write(() => new MovedMeanwhile())]).catch((error: unknown) => {
      if (!(error instanceof MovedMeanwhile)) throw error;
      moved.push(name);
    });
    await onWritten?.(at + 1);
  }
  return moved;
}

interface Attempt {
  changes: CounterChange[];
  daysChanged: number;
  daysUnchanged: number;
  factsRewritten: number;
  moved: string[];
}

/** One rebuild: what is stored, what the records say, and (unless a dry run) the difference written. */
async function attempt(organizationId: string, timezone: string, dryRun: boolean, onProgress?: OnRebuildProgress): Promise<Attempt> {
  await onProgress?.({ phase: 'COUNTING' });
  const stored = await readDays(organizationId);
  const counted = await recount(organizationId, timezone);
  const leadIds = [...counted.facts.keys()];
  const factItems = await batchGetItems(leadIds.map((leadId) => reportKeys.reportLeadFacts(organizationId, leadId)), { consistentRead: true });
  const storedFacts = new Map(factItems.map((item) => [String(item.leadId), storedFactsOf(item)]));
  const days = [...new Set([...stored.keys(), ...counted.days.keys()])].sort();
  const changedDays = days.filter((day) => changesOf(day, stored.get(day)?.totals ?? {}, counted.days.get(day) ?? {}).length > 0);
  const staleFacts = leadIds.filter((leadId) => !storedFacts.has(leadId) || !sameFacts(storedFacts.get(leadId)!.facts, counted.facts.get(leadId)!));
  const writes = [
    ...changedDays.map((day): [string, (onMoved: () => Error) => TransactWrite] => [day, (onMoved) => rewriteDay(organizationId, day, counted.days.get(day) ?? {}, stored.get(day), onMoved)]),
    ...staleFacts.map((leadId): [string, (onMoved: () => Error) => TransactWrite] => [leadId, (onMoved) => rewriteFacts(organizationId, leadId, counted.facts.get(leadId)!, storedFacts.get(leadId), onMoved)]),
  ];
  const total = dryRun ? 0 : writes.length;
  await onProgress?.({ phase: 'WRITING', done: 0, total });
  const moved = dryRun ? [] : await writeEach(writes, onProgress && ((done) => onProgress({ phase: 'WRITING', done, total })));
  const changes = changedDays.flatMap((day) => changesOf(day, stored.get(day)?.totals ?? {}, counted.days.get(day) ?? {}));
  return { changes, daysChanged: changedDays.length, daysUnchanged: days.length - changedDays.length, factsRewritten: staleFacts.length, moved };
}

/** A lead's facts as recounted, on condition of the version read (the consumer's own facts write). */
function rewriteFacts(organizationId: string, leadId: string, facts: LeadFacts, seen: StoredFacts | undefined, onMoved: () => Error): TransactWrite {
  return { ...writeFacts(organizationId, leadId, facts, seen ?? storedFactsOf(undefined)), onConditionFailed: onMoved };
}

/**
 * `npm run admin -- reports rebuild --org <id> [--dry-run]`: counts an organization's records again and rewrites the
 * day items and lead facts that differ, each on condition the consumer did not write it meanwhile (else that rebuild
 * is done again, at most ATTEMPTS times, then named in `runAgain`). Reads every record of the organization and one
 * Query per lead: an off-peak operation (docs/decisions/reports.md).
 */
export async function rebuildReports(organizationId: string, { dryRun = false, onProgress }: { dryRun?: boolean; onProgress?: OnRebuildProgress } = {}): Promise<RebuildReport> {
  const timezone = await getOrganizationTimezone(organizationId);
  let result = await attempt(organizationId, timezone, dryRun, onProgress);
  const first = result;
  for (let tries = 1; result.moved.length > 0 && tries < ATTEMPTS; tries++) result = await attempt(organizationId, timezone, dryRun);
  // What the first attempt found is what was wrong; a later one only redoes what the consumer moved meanwhile.
  const { changes, daysChanged, daysUnchanged, factsRewritten } = first;
  const said = `${daysChanged} days changed, ${daysUnchanged} unchanged, ${factsRewritten} lead facts rewritten${dryRun ? ' (dry run: nothing written)' : ''}`;
  return { organizationId, timezone, dryRun, changes, daysChanged, daysUnchanged, factsRewritten, runAgain: result.moved, said };
}

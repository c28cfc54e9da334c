import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import type { Page } from '#shared/pagination';
import { listOrChanges } from '#shared/store/change-log';
import { pageOfFiltered } from '#shared/store/match-page';
import { queryAll, rangePage, type PageSource } from '#shared/store/query-page';
import { idsSince } from '#shared/store/retention';
import { organizationPartition } from '#shared/store/keys';
import { conditionNotHeld, deleteItem, insertIfAbsent, transact, writeAloneWhereHolds, type TransactWrite } from '#shared/store/transact';
import { setFields, type Condition } from '#shared/store/update-fields';
import type { StopCondition } from '../catalog';
import { ENDED_RUN_STATUSES, type RunStatus, type RunStep } from './attributes';
import { fromRunItem, fromRunStateItem, runKeys, toRunItem, type RunState, type WatchedKey } from './entity';
import type { ListLeadRunsQuery, ListRunsQuery, ListStoppedRunsQuery, Run, RunListItem } from './schema';
import { readLeadSummaries } from '../../leads/read-summaries';
import { leadKeys } from '../../leads/entity';
import { NotFoundError } from '#shared/errors';

/** The run as stored, read consistently (the runner acts on it); undefined when there is none. */
export async function readRunState(organizationId: string, runId: string): Promise<RunState | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: runKeys.run(organizationId, runId), ConsistentRead: true }));
  return Item ? fromRunStateItem(Item) : undefined;
}

/** What a run watches: its lead, and its appointment when it has one. */
export const watchedBy = ({ leadId, appointmentId }: Pick<Run, 'leadId' | 'appointmentId'>): WatchedKey[] => [
  { kind: 'lead', leadId },
  ...(appointmentId ? [{ kind: 'appointment' as const, appointmentId }] : []),
];

/** A condition of ours that failed: the run exists already, or moved on meanwhile; nothing to do. */
class NotHeld extends Error {}
const whereHeld = (write: Promise<void>): Promise<boolean> =>
  write.then(
    () => true,
    (error: unknown) => {
      if (error instanceof NotHeld) return false;
      throw error;
    },
  );

/** The cap the put of a run carried was reached: its count stays, nothing was put. */
class CapReached extends Error {}

/**
 * The run and its watches, put only when the run is new: `exists` when it was (an event handed again, whatever the
 * cap), `capped` when the count it carries (`cap`, moved in the same transaction) is at its cap; nothing is written then.
 */
export async function putRun(state: RunState, stopWhen: readonly StopCondition[], { cap, triggerWrite }: { cap?: TransactWrite; triggerWrite?: string } = {}): Promise<'put' | 'exists' | 'capped'> {
  const { organizationId: o, id: runId, automationId } = state;
  const watches = watchedBy(state).map((watched) => insertIfAbsent({ ...runKeys.watch(o, watched, runId), entity: 'AUTOMATION_WATCH', runId, automationId, stopWhen, ...(triggerWrite ? { triggerWrite } : {}) }));
  // The run first: a transaction answers its first failed condition, so a run handed again is `exists` at the cap too.
  const writes = [insertIfAbsent(toRunItem(state), () => new NotHeld()), ...(cap ? [{ ...cap, onConditionFailed: () => new CapReached() }] : []), ...watches];
  return transact(writes).then(
    () => 'put' as const,
    (error: unknown) => {
      if (error instanceof NotHeld) return 'exists' as const;
      if (error instanceof CapReached) return 'capped' as const;
      throw error;
    },
  );
}

/** A run that ended before its first step (STOPPED by a bound on runs), with no watches: false when it existed. */
export const putEndedRun = (state: RunState): Promise<boolean> => writeAloneWhereHolds(insertIfAbsent(toRunItem(state), conditionNotHeld));

const ENDED = ENDED_RUN_STATUSES.map((_, i) => `:ended${i}`);
const endedValues = Object.fromEntries(ENDED_RUN_STATUSES.map((status, i) => [`:ended${i}`, status]));

/** The run is still active and at this wake (and, when given, at this step): what every move of the runner is conditioned on. */
export function stillAt(wake: number, stepIndex?: number): Condition {
  return {
    expression: `#wake = :wake AND NOT #status IN (${ENDED.join(', ')})${stepIndex === undefined ? '' : ' AND #stepIndex = :stepIndex'}`,
    names: { '#wake': 'wake', '#status': 'status', ...(stepIndex === undefined ? {} : { '#stepIndex': 'stepIndex' }) },
    values: { ':wake': wake, ...endedValues, ...(stepIndex === undefined ? {} : { ':stepIndex': stepIndex }) },
  };
}

/** An Update of the run's fields on condition; `conditionNotHeld` when it fails. */
export const runUpdate = (organizationId: string, runId: string, fields: object, condition: Condition): TransactWrite =>
  setFields(runKeys.run(organizationId, runId), fields, { condition, onConditionFailed: conditionNotHeld });

/** The run still holds this wake at this step: a check another transaction (an SMS's record) carries. */
export function runStillAtCheck(organizationId: string, runId: string, wake: number, stepIndex: number): TransactWrite {
  const { expression, names, values } = stillAt(wake, stepIndex);
  return {
    item: { ConditionCheck: { TableName: config.tableName, Key: runKeys.run(organizationId, runId), ConditionExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values } },
  };
}

/**
 * Claims step `stepIndex` for one delivery: the run is at it with this wake, and no other delivery holds it (or its
 * lease ran out, the holder having crashed). False when another holds it or the run moved on.
 */
export function claimStep(state: RunState, stepIndex: number, wake: number, nowMs: number, leaseMs: number): Promise<boolean> {
  const steps = state.steps.map((step, i) => (i === stepIndex ? { ...step, status: 'RUNNING' as const, at: step.at ?? new Date(nowMs).toISOString() } : step));
  const { expression, names, values } = stillAt(wake, stepIndex);
  const lease: Condition = {
    expression: `${expression} AND (#leaseUntil < :now OR attribute_not_exists(#leaseUntil))`,
    names: { ...names, '#leaseUntil': 'leaseUntil' },
    values: { ...values, ':now': nowMs },
  };
  return writeAloneWhereHolds(runUpdate(state.organizationId, state.id, { steps, status: 'RUNNING', leaseUntil: nowMs + leaseMs, updatedAt: new Date(nowMs).toISOString() }, lease));
}

/** A write of the run at this wake and step, its lease let go; false when the run is no longer at them (a twin delivery moved it). */
const writeAtStep = (state: RunState, wake: number, stepIndex: number, fields: object): Promise<boolean> =>
  writeAloneWhereHolds(runUpdate(state.organizationId, state.id, { ...fields, leaseUntil: 0 }, stillAt(wake, stepIndex)));

/** Moves the run on from this wake and step, its `updatedAt` with it, and so its place in its automation's change log (updatedSince). */
export const moveRun = (state: RunState, wake: number, stepIndex: number, fields: Partial<RunState> & Pick<RunState, 'updatedAt'>) => writeAtStep(state, wake, stepIndex, fields);

/** Lets go of a step claimed at this wake (its effect threw): only the lease moves, which the API does not show, so `updatedAt` stays. */
export const releaseStep = (state: RunState, wake: number, stepIndex: number) => writeAtStep(state, wake, stepIndex, {});

/**
 * Ends the run (COMPLETED, STOPPED or FAILED) and deletes its watches, on condition it is still at `wake`: steps not
 * done become CANCELLED, the wake moves so any message still on its way is stale. False when it ended or moved meanwhile.
 */
export async function endRun(state: RunState, ending: { status: RunStatus; stoppedReason?: string; failedReason?: string; steps: RunStep[] }, at: string): Promise<boolean> {
  const { organizationId: o, id: runId } = state;
  const steps = ending.steps.map((step) => (step.status === 'PENDING' || step.status === 'WAITING' || step.status === 'RUNNING' ? { ...step, status: 'CANCELLED' as const } : step));
  // Only a stop gives a reason: it lists the run with the stopped ones.
  const stopped = ending.stoppedReason ? runKeys.stoppedRun(o, { id: runId, stoppedReason: ending.stoppedReason, updatedAt: at }) : {};
  const fields = { status: ending.status, stoppedReason: ending.stoppedReason ?? null, failedReason: ending.failedReason ?? null, steps, nextStepAt: null, wake: state.wake + 1, leaseUntil: 0, scheduleName: null, updatedAt: at, ...stopped };
  const run = setFields(runKeys.run(o, runId), fields, { condition: stillAt(state.wake), onConditionFailed: () => new NotHeld() });
  return whereHeld(transact([run, ...watchedBy(state).map((watched) => deleteItem(runKeys.watch(o, watched, runId)))]));
}

export interface Watcher {
  runId: string;
  automationId: string;
  stopWhen: readonly string[];
  /** The write whose change started the run (shared/audit/writer.ts), if a writer made it. */
  triggerWrite?: string;
}

/** The active runs watching a lead or an appointment. */
export async function watchersOf(organizationId: string, watched: WatchedKey): Promise<Watcher[]> {
  const items = await queryAll(runKeys.watchers(organizationId, watched));
  return items.map((item) => ({
    runId: String(item.runId),
    automationId: String(item.automationId),
    stopWhen: (item.stopWhen as string[] | undefined) ?? [],
    ...(typeof item.triggerWrite === 'string' ? { triggerWrite: item.triggerWrite } : {}),
  }));
}

/** The ids of an automation's runs still active. */
export async function activeRunIdsOf(organizationId: string, automationId: string): Promise<string[]> {
  const items = await queryAll(runKeys.runsOfAutomation(organizationId, automationId), ['id', 'status']);
  return items.filter((item) => !(ENDED_RUN_STATUSES as readonly unknown[]).includes(item.status)).map((item) => String(item.id));
}

/**
 * A page of an automation's runs, newest first, of one status when asked (the automation's runs are read whole, so the
 * count is exact), or those changed since `updatedSince`, oldest change first, from their change log.
 */
export async function listRunsPage(organizationId: string, automationId: string, { status, expand, ...request }: ListRunsQuery): Promise<Page<RunListItem>> {
  const keep = (item: Record<string, unknown>) => status === undefined || item.status === status;
  const log = { partition: runKeys.runChanges(organizationId, automationId).gsi6pk, filters: { status } };
  const page = await listOrChanges(request, log, (at) => pageOfFiltered(runKeys.runsOfAutomation(organizationId, automationId), keep, `status=${status ?? ''}`, at));
  return { items: await withLeads(organizationId, page.items.map(fromRunItem), expand), totalCount: page.totalCount ?? 0, page: request.page, limit: request.limit, nextCursor: page.nextCursor };
}

/** With `expand=lead`, each run with its lead, the page's leads read in one BatchGetItem. */
async function withLeads(organizationId: string, runs: Run[], expand: 'lead' | undefined): Promise<RunListItem[]> {
  if (expand !== 'lead' || runs.length === 0) return runs;
  const leads = await readLeadSummaries(organizationId, runs.map((run) => run.leadId));
  return runs.map((run) => ({ ...run, lead: leads.get(run.leadId) ?? null }));
}

/**
 * Whether the lead sent an SMS after `since`: its messages newest first (gsi4), a page of 10. A reply can reach the
 * stream before the change that started a run does, so the stop finds no run to stop; the run looks for itself.
 */
export async function leadRepliedSince(organizationId: string, leadId: string, since: string): Promise<boolean> {
  // After it, not at it: a text received at the trigger's instant is the one that started the run (a first text).
  const [from, to] = idsSince('message', new Date(Date.parse(since) + 1).toISOString());
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: config.tableName,
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `${organizationPartition(organizationId)}#SMS#LEAD#${leadId}`, ':from': from, ':to': to },
      ScanIndexForward: false,
      Limit: 10,
    }),
  );
  return Items.some((item) => item.direction === 'INBOUND');
}

/**
 * The runs that stopped, of every automation or of one reason, newest stop first, and their exact count: a key range of
 * the stopped runs' index (from `stoppedSince` on, when given).
 */
export async function listStoppedRunsPage(organizationId: string, { stoppedReason, stoppedSince, expand, page, limit, cursor }: ListStoppedRunsQuery): Promise<Page<RunListItem>> {
  const source: PageSource = { ...runKeys.stoppedRuns(organizationId, stoppedReason), ...(stoppedSince === undefined ? {} : { skBetween: [stoppedSince, '~'] as [string, string] }) };
  const found = await rangePage(source, { page, limit, cursor });
  return { items: await withLeads(organizationId, found.items.map(fromRunItem), expand), totalCount: found.totalCount, page, limit, nextCursor: found.nextCursor };
}

/**
 * A lead's runs of every automation, newest first: the Query of the lead's partition of gsi4 (a lead has a few runs:
 * a first page that holds them all counts them; past it, a COUNT Query), with the lead's item read beside it, so an
 * unknown lead answers 404.
 */
export async function listLeadRunsPage(organizationId: string, leadId: string, { page, limit, cursor }: ListLeadRunsQuery): Promise<Page<Run>> {
  const [found, lead] = await Promise.all([
    rangePage(runKeys.leadRuns(organizationId, leadId), { page, limit, cursor }, { small: true }),
    dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, leadId), ProjectionExpression: 'pk' })),
  ]);
  if (!lead.Item) throw new NotFoundError('Lead not found');
  return { items: found.items.map(fromRunItem), totalCount: found.totalCount, page, limit, nextCursor: found.nextCursor };
}

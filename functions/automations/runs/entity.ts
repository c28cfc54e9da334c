import type { AuditedRecord } from '#shared/resource';
import { changeLogKey, organizationPartition as org, SAMPLE_ORGANIZATION_ID, type Key, type KeySamples } from '#shared/store/keys';
import { runEntity, type RunStep } from './attributes';
import type { Run } from './schema';

/**
 * A run's items: the run (in its automation's runs, gsi1, and their change log, gsi6; once stopped, in the stopped runs, gsi2 and gsi3), the watches that let a change of its lead or appointment find it (one partition per record
 * watched, a row per run), a marker per step whose effect writes outside the run (a note, a status, a member's text),
 * and the daily counts the caps read: a lead's automated SMS, an automation's runs for a lead, a member's texts.
 */
export const runKeys = {
  run: runEntity.key,
  runsOfAutomation: (o: string, automationId: string) => ({ index: 'gsi1' as const, pk: `${org(o)}#AUTOMATION#${automationId}#RUNS` }),
  /**
   * gsi2 and gsi3 of a STOPPED run (GET /v1/automation-runs): every stopped run, and those of its reason, by when it
   * stopped (its last `updatedAt`: a stopped run never changes again), newest first.
   */
  stoppedRun: (o: string, run: { id: string; stoppedReason: string; updatedAt: string }) => ({
    gsi2pk: `${org(o)}#RUNS#STOPPED`,
    gsi2sk: `${run.updatedAt}#${run.id}`,
    gsi3pk: `${org(o)}#RUNS#STOPPED#${run.stoppedReason}`,
    gsi3sk: `${run.updatedAt}#${run.id}`,
  }),
  /** The stopped runs' list: all of them (gsi2), or one reason's (gsi3). */
  stoppedRuns: (o: string, stoppedReason?: string) => (stoppedReason === undefined ? { index: 'gsi2' as const, pk: `${org(o)}#RUNS#STOPPED` } : { index: 'gsi3' as const, pk: `${org(o)}#RUNS#STOPPED#${stoppedReason}` }),
  /** gsi4 of every run: its lead's runs, of every automation, newest first (GET /v1/leads/{leadId}/automation-runs). */
  leadRun: (o: string, run: { id: string; leadId: string }) => ({ gsi4pk: `${org(o)}#LEAD#${run.leadId}#RUNS`, gsi4sk: run.id }),
  /** A lead's runs: gsi4's partition of the lead. */
  leadRuns: (o: string, leadId: string) => ({ index: 'gsi4' as const, pk: `${org(o)}#LEAD#${leadId}#RUNS` }),
  /** The change log of an automation's runs (updatedSince): each write of a run moves its `updatedAt`, so its place in it. */
  runChanges: (o: string, automationId: string) => changeLogKey(o, `RUNS#${automationId}`),
  watch: (o: string, watched: WatchedKey, runId: string): Key => ({ pk: watchPartition(o, watched), sk: `RUN#${runId}` }),
  watchers: (o: string, watched: WatchedKey) => ({ pk: watchPartition(o, watched), skPrefix: 'RUN#' }),
  stepMarker: (o: string, runId: string, stepIndex: number): Key => ({ pk: `${org(o)}#RUN#${runId}`, sk: `STEP#${String(stepIndex).padStart(2, '0')}` }),
  dailyCap: (o: string, leadId: string, localDate: string): Key => ({ pk: `${org(o)}#AUTOCAP#${leadId}`, sk: `DAY#${localDate}` }),
  /** The count of one automation's runs for one lead in one local day. */
  dailyRuns: (o: string, automationId: string, leadId: string, localDate: string): Key => ({ pk: `${org(o)}#AUTOCAP#${leadId}`, sk: `RUNS#${automationId}#DAY#${localDate}` }),
  /** The count of notify_member texts to one member in one local day. */
  memberDailyCap: (o: string, memberId: number, localDate: string): Key => ({ pk: `${org(o)}#AUTOCAP#MEMBER#${memberId}`, sk: `DAY#${localDate}` }),
} as const;

export type WatchedKey = { kind: 'lead'; leadId: string } | { kind: 'appointment'; appointmentId: string };
const watchPartition = (o: string, watched: WatchedKey) => (watched.kind === 'lead' ? `${org(o)}#WATCH#LEAD#${watched.leadId}` : `${org(o)}#WATCH#APPOINTMENT#${watched.appointmentId}`);

const O = SAMPLE_ORGANIZATION_ID;
export const runKeySamples: KeySamples<typeof runKeys> = {
  run: () => runKeys.run(O, 'run_1'),
  runsOfAutomation: () => runKeys.runsOfAutomation(O, 'automation_1'),
  stoppedRun: () => runKeys.stoppedRun(O, { id: 'run_1', stoppedReason: 'lead.replied', updatedAt: '2026-12-01T00:00:00.000Z' }),
  stoppedRuns: () => runKeys.stoppedRuns(O, 'lead.replied'),
  runChanges: () => runKeys.runChanges(O, 'automation_1'),
  leadRun: () => runKeys.leadRun(O, { id: 'run_1', leadId: 'lead_1' }),
  leadRuns: () => runKeys.leadRuns(O, 'lead_1'),
  watch: () => runKeys.watch(O, { kind: 'lead', leadId: 'lead_1' }, 'run_1'),
  watchers: () => runKeys.watchers(O, { kind: 'appointment', appointmentId: 'appointment_1' }),
  stepMarker: () => runKeys.stepMarker(O, 'run_1', 3),
  dailyCap: () => runKeys.dailyCap(O, 'lead_1', '2026-12-01'),
  dailyRuns: () => runKeys.dailyRuns(O, 'automation_1', 'lead_1', '2026-12-01'),
  memberDailyCap: () => runKeys.memberDailyCap(O, 3, '2026-12-01'),
};

/** A run as the runner holds it: the record, and where it is (`stepIndex`), its wake token, its step's lease and its schedule. */
export interface RunState extends Run {
  organizationId: string;
  stepIndex: number;
  /** Moves with every schedule made for the run: a message carrying another value is stale and does nothing. */
  wake: number;
  /** Until when (ms) the current step is claimed by a delivery. */
  leaseUntil: number;
  scheduleName: string | null;
  triggeredAt: string;
  /** 1 for a run started by a request, an event of no run's or by hand; one more than its run's for a run started by a run's write. */
  chainDepth: number;
}

export function toRunItem(state: RunState) {
  const { organizationId, stepIndex, wake, leaseUntil, scheduleName, triggeredAt, chainDepth, ...run } = state;
  // Only a STOPPED run has a stoppedReason.
  const stopped = run.stoppedReason ? runKeys.stoppedRun(organizationId, { ...run, stoppedReason: run.stoppedReason }) : {};
  return { ...runEntity.toItem(organizationId, run), ...runKeys.runChanges(organizationId, run.automationId), ...runKeys.leadRun(organizationId, run), ...stopped, organizationId, stepIndex, wake, leaseUntil, scheduleName, triggeredAt, chainDepth };
}

export const fromRunItem = (item: Record<string, unknown>): Run => runEntity.fromItem(item);

export function fromRunStateItem(item: Record<string, unknown>): RunState {
  return {
    ...fromRunItem(item),
    organizationId: String(item.organizationId),
    stepIndex: Number(item.stepIndex),
    wake: Number(item.wake),
    leaseUntil: Number(item.leaseUntil ?? 0),
    scheduleName: typeof item.scheduleName === 'string' ? item.scheduleName : null,
    triggeredAt: String(item.triggeredAt),
    chainDepth: typeof item.chainDepth === 'number' ? item.chainDepth : 1,
  };
}

/** A step not reached yet. */
export const pendingStep = (index: number, type: RunStep['type']): RunStep => ({ index, type, status: 'PENDING', dueAt: null, at: null, result: {} });

/** A run, as the audit log names it. */
export const runAudit: AuditedRecord = { entity: 'AUTOMATION_RUN', resourceType: 'automation_run' };

import { clock } from '#shared/clock';
import { ApiError, NotFoundError, ValidationError } from '#shared/errors';
import { DIMENSION, logger, METRICS_NAMESPACE, SERVICE_NAME } from '#shared/observability';
import { ulid } from 'ulid';
import { getAppointment } from '../../appointments/store';
import { getLead } from '../../leads/read';
import { runCapWrite } from '../steps/cap';
import { LIMITS, TRIGGERS, type AutomationDefinition } from '../catalog';
import { automationEngine } from '../engine/engine';
import { DAILY_RUN_CAP_REACHED, isEnded, LOOP_DETECTED, type RunStoppedReason } from './attributes';
import { readRunOrganization } from './context';
import { derivedId } from '#shared/ids';
import { fromRunItem, pendingStep, toRunItem, type RunState } from './entity';
import type { EnrolBody, Run } from './schema';
import { putEndedRun, putRun, readRunState } from './store';
import { definitionOf } from '../entity';
import { getAutomation, readAutomationDefinition } from '../store';

export { rescheduleRunsWatching, stopRunsOfAutomation, stopRunsWatching } from './stops';

export interface RunStart {
  organizationId: string;
  automationId: string;
  version: number;
  leadId: string;
  appointmentId?: string;
  /** The event that started it: one run per (automation, event), so a replayed event starts nothing twice. */
  triggerEventId: string;
  triggeredAt: string;
  /** How deep in a chain of runs it is: one more than the run whose write made its event, 1 when no run's did. */
  chainDepth?: number;
  /** The write whose change made its event: the other events of that one write stop nothing of it. */
  triggerWrite?: string;
}

/** What a run watches: its lead, and its appointment if it has one. */
export type Watched = { kind: 'lead'; leadId: string } | { kind: 'appointment'; appointmentId: string };

const iso = (ms: number) => new Date(ms).toISOString();

/** A run at its first step, every step pending, due at once. */
function newRun(organizationId: string, id: string, definition: AutomationDefinition, who: { leadId: string; appointmentId: string | null; triggerEventId: string | null; triggeredAt: string; chainDepth: number }): RunState {
  const at = iso(clock.now());
  const run: Run = {
    id,
    automationId: definition.automationId,
    automationVersion: definition.version,
    leadId: who.leadId,
    appointmentId: who.appointmentId,
    triggerEventId: who.triggerEventId,
    status: 'RUNNING',
    stoppedReason: null,
    failedReason: null,
    nextStepAt: at,
    steps: definition.steps.map((step, index) => pendingStep(index, step.type)),
    createdAt: at,
    updatedAt: at,
  };
  return { ...run, organizationId, stepIndex: 0, wake: 0, leaseUntil: 0, scheduleName: null, triggeredAt: who.triggeredAt, chainDepth: who.chainDepth };
}

/**
 * A run not started, by a bound on runs: recorded STOPPED with its reason and every step CANCELLED (its event,
 * automation_run.stopped, says so), and counted once (a metric by reason; an event handed again records nothing more).
 */
async function refuseRun(run: RunState, reason: RunStoppedReason): Promise<void> {
  const stopped: RunState = { ...run, status: 'STOPPED', stoppedReason: reason, nextStepAt: null, steps: run.steps.map((step) => ({ ...step, status: 'CANCELLED' })) };
  if (!(await putEndedRun(stopped))) return;
  logger.warn('automation run not started', { organizationId: run.organizationId, automationId: run.automationId, runId: run.id, leadId: run.leadId, reason, chainDepth: run.chainDepth });
  await countRefusedRun(reason);
}

/** The metric of runs recorded STOPPED before their first step (EMF), by the dimension `reason`. */
export const RUNS_REFUSED_METRIC = 'AutomationRunsRefused';

/** One count of a run not started, by its reason; Powertools Metrics is loaded then, not at the stream consumer's cold start. */
async function countRefusedRun(reason: RunStoppedReason): Promise<void> {
  const { Metrics, MetricUnit } = await import('@aws-lambda-powertools/metrics');
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  metrics.addDimension(DIMENSION.reason, reason);
  metrics.addMetric(RUNS_REFUSED_METRIC, MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}

const firstStep = (run: Pick<RunState, 'organizationId' | 'id'>) => automationEngine().queue.send([{ kind: 'advance', organizationId: run.organizationId, runId: run.id, wake: 0 }]);

/**
 * Starts a run (conditional on none for this automation and event) and queues its first step; `started` false when
 * it existed. A run that existed and has not moved yet has its first step queued again: the attempt that put it may
 * have stopped before queuing it, and a twin message does nothing. A run deeper in a chain of runs than
 * `LIMITS.chainDepth`, or past the automation's runs for the lead that local day, is recorded STOPPED instead.
 */
export async function startRun(start: RunStart): Promise<{ runId: string; started: boolean }> {
  const { organizationId, automationId, version, leadId, triggerEventId, triggeredAt, chainDepth = 1 } = start;
  const runId = derivedId('run', Date.parse(triggeredAt), `${automationId}#${triggerEventId}`);
  const definition = await readAutomationDefinition(organizationId, automationId, version);
  if (!definition) return { runId, started: false };
  const run = newRun(organizationId, runId, definition, { leadId, appointmentId: start.appointmentId ?? null, triggerEventId, triggeredAt, chainDepth });
  if (chainDepth > LIMITS.chainDepth) {
    await refuseRun(run, LOOP_DETECTED);
    return { runId, started: false };
  }
  const { timezone } = await readRunOrganization(organizationId);
  // Counted on the local day it starts; a run handed again is found before its count, so counts nothing twice.
  const put = await putRun(run, definition.stopWhen, { cap: runCapWrite(organizationId, automationId, leadId, timezone, clock.now()), triggerWrite: start.triggerWrite });
  if (put === 'capped') {
    await refuseRun(run, DAILY_RUN_CAP_REACHED);
    return { runId, started: false };
  }
  const existing = put === 'put' ? run : await readRunState(organizationId, runId);
  if (existing && !isEnded(existing.status) && existing.wake === 0) await firstStep(existing);
  return { runId, started: put === 'put' };
}

const notEnrollable = (trigger: string) => new ApiError(409, `Leads cannot be enrolled by hand in an automation on ${trigger}: its runs start from their events`, 'NOT_ENROLLABLE');

/** The appointment a hand enrolment names: required by appointment triggers, and the lead's own. */
export async function enrolledAppointment(organizationId: string, definition: AutomationDefinition, body: EnrolBody): Promise<string | null> {
  if (!needsAppointment(definition)) return null;
  if (body.appointmentId === undefined) throw new ValidationError([{ path: 'appointmentId', message: `appointmentId is required: the automation's trigger ${definition.trigger.event} is about an appointment` }]);
  const appointment = await getAppointment(organizationId, body.appointmentId);
  if (!appointment) throw new NotFoundError('Appointment not found');
  if (appointment.value.leadId !== body.leadId) throw new ValidationError([{ path: 'appointmentId', message: 'appointmentId must be an appointment of the lead' }]);
  return body.appointmentId;
}

/** The current version of an automation leads may be enrolled in by hand: it exists, is on, and its trigger allows it. */
export async function enrollableDefinition(organizationId: string, automationId: string): Promise<AutomationDefinition> {
  const stored = await getAutomation(organizationId, automationId);
  if (!stored) throw new NotFoundError('Automation not found');
  if (!stored.automation.isEnabled) throw new ApiError(409, 'The automation is disabled: enable it (PATCH isEnabled) to enrol leads', 'AUTOMATION_DISABLED');
  const definition = definitionOf(stored);
  if (!TRIGGERS[definition.trigger.event].enrolByHand) throw notEnrollable(definition.trigger.event);
  return definition;
}

/** Whether an automation's runs are about an appointment, which each enrolment must then name. */
export const needsAppointment = (definition: AutomationDefinition) => TRIGGERS[definition.trigger.event].record === 'appointment';

/** Enrols a lead by hand in the automation's current version: a new run each time, started at once. */
export async function enrolLead(organizationId: string, automationId: string, body: EnrolBody): Promise<Run> {
  const definition = await enrollableDefinition(organizationId, automationId);
  if (!(await getLead(organizationId, body.leadId))) throw new NotFoundError('Lead not found');
  const appointmentId = await enrolledAppointment(organizationId, definition, body);
  const nowMs = clock.now();
  return fromRunItem(toRunItem(await startByHand(organizationId, definition, `run_${ulid(nowMs)}`, { leadId: body.leadId, appointmentId }, nowMs)));
}

/**
 * A run started by hand, now, and its first step queued. By hand, a run is no event's: no cap of the automation's runs
 * counts it. A run id that exists already (a bulk enrolment's message handed again) puts nothing and queues the first
 * step again, which a twin message leaves as it is.
 */
async function startByHand(organizationId: string, definition: AutomationDefinition, runId: string, whom: { leadId: string; appointmentId: string | null }, nowMs = clock.now()): Promise<RunState> {
  const run = newRun(organizationId, runId, definition, { ...whom, triggerEventId: null, triggeredAt: iso(nowMs), chainDepth: 1 });
  await putRun(run, definition.stopWhen);
  await firstStep(run);
  return run;
}

/**
 * Enrols one lead of a bulk enrolment, by a run id made from the enrolment and the lead, so a message handed again
 * starts it once. A lead deleted meanwhile is skipped.
 */
export async function enrolLeadOfJob(organizationId: string, definition: AutomationDefinition, leadId: string, runId: string): Promise<boolean> {
  if (!(await getLead(organizationId, leadId))) return false;
  await startByHand(organizationId, definition, runId, { leadId, appointmentId: null });
  return true;
}

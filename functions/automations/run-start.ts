import { clock } from '#shared/clock';
import { ApiError, NotFoundError, ValidationError } from '#shared/errors';
import { ulid } from 'ulid';
import { getAppointment } from '../appointments/store';
import { getLead } from '../leads/read';
import { TRIGGERS, type AutomationDefinition } from './catalog';
import { automationEngine } from './engine';
import { isEnded } from './run-attributes';
import { derivedId, fromRunItem, pendingStep, toRunItem, type RunState } from './run-entity';
import type { EnrolBody, Run } from './run-schema';
import { putRun, readRunState } from './run-store';
import { definitionOf } from './entity';
import { getAutomation, readAutomationDefinition } from './store';

export { rescheduleRunsWatching, stopRunsOfAutomation, stopRunsWatching } from './run-stops';

export interface RunStart {
  organizationId: string;
  automationId: string;
  version: number;
  leadId: string;
  appointmentId?: string;
  /** The event that started it: one run per (automation, event), so a replayed event starts nothing twice. */
  triggerEventId: string;
  triggeredAt: string;
}

/** What a run watches: its lead, and its appointment if it has one. */
export type Watched = { kind: 'lead'; leadId: string } | { kind: 'appointment'; appointmentId: string };

const iso = (ms: number) => new Date(ms).toISOString();

/** A run at its first step, every step pending, due at once. */
function newRun(organizationId: string, id: string, definition: AutomationDefinition, who: { leadId: string; appointmentId: string | null; triggerEventId: string | null; triggeredAt: string }): RunState {
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
  return { ...run, organizationId, stepIndex: 0, wake: 0, leaseUntil: 0, scheduleName: null, triggeredAt: who.triggeredAt };
}

const firstStep = (run: Pick<RunState, 'organizationId' | 'id'>) => automationEngine().queue.send([{ kind: 'advance', organizationId: run.organizationId, runId: run.id, wake: 0 }]);

/**
 * Starts a run (conditional on none for this automation and event) and queues its first step; `started` false when
 * it existed. A run that existed and has not moved yet has its first step queued again: the attempt that put it may
 * have stopped before queuing it, and a twin message does nothing.
 */
export async function startRun(start: RunStart): Promise<{ runId: string; started: boolean }> {
  const { organizationId, automationId, version, triggerEventId, triggeredAt } = start;
  const runId = derivedId('run', Date.parse(triggeredAt), `${automationId}#${triggerEventId}`);
  const definition = await readAutomationDefinition(organizationId, automationId, version);
  if (!definition) return { runId, started: false };
  const run = newRun(organizationId, runId, definition, { leadId: start.leadId, appointmentId: start.appointmentId ?? null, triggerEventId, triggeredAt });
  const started = await putRun(run, definition.stopWhen);
  const existing = started ? run : await readRunState(organizationId, runId);
  if (existing && !isEnded(existing.status) && existing.wake === 0) await firstStep(existing);
  return { runId, started };
}

const notEnrollable = (trigger: string) => new ApiError(409, `Leads cannot be enrolled by hand in an automation on ${trigger}: its runs start from their events`, 'NOT_ENROLLABLE');

/** The appointment a hand enrolment names: required by appointment triggers, and the lead's own. */
export async function enrolledAppointment(organizationId: string, definition: AutomationDefinition, body: EnrolBody): Promise<string | null> {
  if (TRIGGERS[definition.trigger.event].record !== 'appointment') return null;
  if (body.appointmentId === undefined) throw new ValidationError([{ path: 'appointmentId', message: `appointmentId is required: the automation's trigger ${definition.trigger.event} is about an appointment` }]);
  const appointment = await getAppointment(organizationId, body.appointmentId);
  if (!appointment) throw new NotFoundError('Appointment not found');
  if (appointment.value.leadId !== body.leadId) throw new ValidationError([{ path: 'appointmentId', message: 'appointmentId must be an appointment of the lead' }]);
  return body.appointmentId;
}

/** Enrols a lead by hand in the automation's current version: a new run each time, started at once. */
export async function enrolLead(organizationId: string, automationId: string, body: EnrolBody): Promise<Run> {
  const stored = await getAutomation(organizationId, automationId);
  if (!stored) throw new NotFoundError('Automation not found');
  if (!stored.automation.isEnabled) throw new ApiError(409, 'The automation is disabled: enable it (PATCH isEnabled) to enrol leads', 'AUTOMATION_DISABLED');
  const definition = definitionOf(stored);
  if (!TRIGGERS[definition.trigger.event].enrolByHand) throw notEnrollable(definition.trigger.event);
  if (!(await getLead(organizationId, body.leadId))) throw new NotFoundError('Lead not found');
  const appointmentId = await enrolledAppointment(organizationId, definition, body);
  const nowMs = clock.now();
  const run = newRun(organizationId, `run_${ulid(nowMs)}`, definition, { leadId: body.leadId, appointmentId, triggerEventId: null, triggeredAt: iso(nowMs) });
  await putRun(run, definition.stopWhen);
  await firstStep(run);
  return fromRunItem(toRunItem(run));
}

import { clock } from '#shared/clock';
import type { StopCondition } from '../catalog';
import { automationEngine, type CleanupMessage, type RescheduleMessage } from '../engine/engine';
import { isEnded } from './attributes';
import { anchorAt, readRunContext } from './context';
import type { RunState, WatchedKey } from './entity';
import { activeRunIdsOf, endRun, moveRun, readRunState, watchersOf } from './store';
import { waitDue } from '../steps/times';
import { readAutomationDefinition } from '../store';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Stops the run, if still active, with its reason: STOPPED, its steps not done CANCELLED, its watches deleted, its wake
 * moved (so a message on its way does nothing, and an SMS under way records nothing), and its schedule deleted.
 * Answers the run as it stands after.
 */
export async function stopRun(organizationId: string, runId: string, reason: string): Promise<RunState | undefined> {
  for (;;) {
    const state = await readRunState(organizationId, runId);
    if (!state || isEnded(state.status)) return state;
    if (await endRun(state, { status: 'STOPPED', stoppedReason: reason, steps: state.steps }, iso(clock.now()))) {
      if (state.scheduleName) await automationEngine().queue.send([{ kind: 'cleanup', organizationId, runId, scheduleName: state.scheduleName }]);
      return readRunState(organizationId, runId);
    }
    // Moved meanwhile (a step recorded): read it again and stop it as it is now.
  }
}

/**
 * Stops the active runs watching this record whose `stopWhen` holds `condition` (`lead.deleted` and
 * `appointment.deleted` stop every run watching it); a change written by a run itself (`byRunId`) does not stop that run,
 * nor the runs the same event started (`startedBy`).
 */
export async function stopRunsWatching(
  organizationId: string,
  watched: WatchedKey,
  condition: StopCondition | 'lead.deleted' | 'appointment.deleted',
  options: { byRunId?: string; startedBy?: readonly string[]; write?: string } = {},
): Promise<void> {
  const watchers = await watchersOf(organizationId, watched);
  const spared = new Set([...(options.byRunId ? [options.byRunId] : []), ...(options.startedBy ?? [])]);
  const stopAll = condition === 'lead.deleted' || condition === 'appointment.deleted';
  // A run started by one of the write's own changes is spared its other changes' stops: a first text writes its lead,
  // its inquiry and the text at once, and the instant reply its inquiry.created starts is not stopped by that text.
  const startedByThisWrite = (triggerWrite: string | undefined) => options.write !== undefined && triggerWrite === options.write;
  const stopping = watchers.filter(({ runId, stopWhen, triggerWrite }) => !spared.has(runId) && !startedByThisWrite(triggerWrite) && (stopAll || stopWhen.includes(condition)));
  await Promise.all(stopping.map(({ runId }) => stopRun(organizationId, runId, condition)));
}

/** Moves the waits of active runs anchored on this appointment's times (it was moved): each run recomputes its own. */
export async function rescheduleRunsWatching(organizationId: string, appointmentId: string): Promise<void> {
  const watchers = await watchersOf(organizationId, { kind: 'appointment', appointmentId });
  if (watchers.length > 0) await automationEngine().queue.send(watchers.map(({ runId }): RescheduleMessage => ({ kind: 'reschedule', organizationId, runId })));
}

/** Stops every active run of a deleted automation. */
export async function stopRunsOfAutomation(organizationId: string, automationId: string): Promise<void> {
  const runIds = await activeRunIdsOf(organizationId, automationId);
  await Promise.all(runIds.map((runId) => stopRun(organizationId, runId, 'automation.deleted')));
}

/**
 * A run waiting on a wait anchored on its appointment: the due time read again from the appointment as it is now. A
 * new time moves the schedule (a new one under the next wake, the old one deleted); a time already passed wakes the
 * run at once.
 */
export async function reschedule({ organizationId, runId }: RescheduleMessage): Promise<void> {
  const run = await readRunState(organizationId, runId);
  if (!run || isEnded(run.status)) return;
  const definition = await readAutomationDefinition(organizationId, run.automationId, run.automationVersion);
  const step = definition?.steps[run.stepIndex];
  const current = run.steps[run.stepIndex];
  if (!definition || step?.type !== 'wait' || step.before === undefined || current?.status !== 'WAITING') return;
  const context = await readRunContext(organizationId, definition, run.leadId, run.appointmentId);
  const nowMs = clock.now();
  const due = waitDue(step, nowMs, (anchor) => anchorAt(context, anchor));
  if (due === undefined || iso(due) === current.dueAt) return;
  await moveWait(run, due, nowMs);
}

async function moveWait(run: RunState, due: number, nowMs: number): Promise<void> {
  const { organizationId, id: runId, stepIndex } = run;
  const wake = run.wake + 1;
  const { queue, scheduler } = automationEngine();
  const scheduleName = due > nowMs ? `${runId}-${stepIndex}-${wake}` : null;
  if (scheduleName) await scheduler.create(scheduleName, due, { kind: 'advance', organizationId, runId, wake });
  const steps = run.steps.map((step, i) => (i === stepIndex ? { ...step, dueAt: iso(due) } : step));
  const moved = await moveRun(run, run.wake, stepIndex, { steps, wake, scheduleName, nextStepAt: iso(Math.max(due, nowMs)), updatedAt: iso(nowMs) });
  if (!moved) return;
  if (run.scheduleName) await scheduler.delete(run.scheduleName);
  if (!scheduleName) await queue.send([{ kind: 'advance', organizationId, runId, wake }]);
}

/** Deletes a stopped run's schedule; one gone already is done. */
export async function cleanup({ scheduleName }: CleanupMessage): Promise<void> {
  await automationEngine().scheduler.delete(scheduleName);
}

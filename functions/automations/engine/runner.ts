import { clock } from '#shared/clock';
import { unhandledStep, type StepOf } from '../steps/schema';
import { LIMITS } from '../catalog';
import { afterEffect, automationEngine, type AdvanceMessage } from './engine';
import { runEffect, RUN_MOVED, type EffectOutcome } from '../steps/effects';
import { quietUntil } from '../steps/quiet-hours';
import { isEnded, type RunStep } from '../runs/attributes';
import { anchorAt, readRunContext, templateValues, type RunContext } from '../runs/context';
import type { RunState } from '../runs/entity';
import { claimStep, endRun, leadRepliedSince, moveRun, readRunState, releaseStep } from '../runs/store';
import { isLate, waitDue } from '../steps/times';
import { readAutomationDefinition } from '../store';
import { renderTemplate } from '../steps/templates';

/** How long a delivery holds a step it claimed: past it, another delivery takes the step over (the first crashed). */
export const STEP_LEASE_MS = 120_000;

/** What became of a step: recorded and on to the next, due later (scheduled), the run's end, or nothing of ours (another delivery has it). */
type StepOutcome = { kind: 'next'; step: RunStep } | { kind: 'later'; at: number; step: RunStep } | { kind: 'end'; status: 'STOPPED' | 'FAILED'; reason: string; step: RunStep } | { kind: 'gone' };

const iso = (ms: number) => new Date(ms).toISOString();
const finished = (step: RunStep, status: RunStep['status'], nowMs: number, result: RunStep['result'] = {}): RunStep => ({ ...step, status, at: step.at ?? iso(nowMs), result: { ...step.result, ...result } });

/** A wait: over when its own schedule woke the run; else due later (scheduled), or past already (skipped). */
function waitStep(context: RunContext, step: StepOf<'wait'>, current: RunStep, nowMs: number): StepOutcome {
  if (current.status === 'WAITING') return { kind: 'next', step: finished(current, 'DONE', nowMs) };
  const due = waitDue(step, nowMs, (anchor) => anchorAt(context, anchor));
  if (due === undefined) return { kind: 'next', step: finished(current, 'SKIPPED', nowMs, { reason: 'no anchor' }) };
  if (due <= nowMs) return { kind: 'next', step: { ...finished(current, 'SKIPPED', nowMs, { reason: 'time passed' }), dueAt: iso(due) } };
  return { kind: 'later', at: due, step: { ...current, status: 'WAITING', dueAt: iso(due) } };
}

/** Before an SMS is claimed: late for its anchor (skipped), in quiet hours (deferred), or too long once rendered (failed). */
function smsCheck(context: RunContext, index: number, body: string, current: RunStep, nowMs: number): StepOutcome | undefined {
  const { definition, organization } = context;
  if (isLate(definition, index, nowMs, (anchor) => anchorAt(context, anchor))) return { kind: 'next', step: finished(current, 'SKIPPED', nowMs, { reason: 'late' }) };
  const allowedAt = quietUntil(definition.quietHours, organization, nowMs);
  if (allowedAt === null) return { kind: 'next', step: finished(current, 'SKIPPED', nowMs, { reason: 'no allowed hours' }) };
  if (allowedAt !== undefined) return { kind: 'later', at: allowedAt, step: { ...current, status: 'WAITING', dueAt: iso(allowedAt), result: { ...current.result, deferredBy: 'QUIET_HOURS' } } };
  if (body.length > LIMITS.smsCharacters) {
    const reason = `rendered SMS is ${body.length} characters; at most ${LIMITS.smsCharacters}`;
    return { kind: 'end', status: 'FAILED', reason, step: finished(current, 'FAILED', nowMs, { reason }) };
  }
  return undefined;
}

/** What the effect's outcome makes of the step. */
function afterEffectOutcome(current: RunStep, outcome: EffectOutcome, atMs: number): StepOutcome {
  const step = { ...current, status: outcome.status, at: iso(atMs), result: { ...current.result, ...outcome.result } };
  if (outcome.retryAt !== undefined) return { kind: 'later', at: outcome.retryAt, step: { ...step, status: 'WAITING', dueAt: iso(outcome.retryAt) } };
  if (outcome.end) return { kind: 'end', ...outcome.end, step };
  if (outcome.status === 'FAILED') return { kind: 'end', status: 'FAILED', reason: outcome.result.reason ?? 'step failed', step };
  return { kind: 'next', step };
}

/**
 * Makes a claimed step's effect; one that throws lets go of the claim first, so the message's next delivery takes the
 * step at once (and finds what the effect made, by its id or marker) rather than after the lease.
 */
async function effectOnce<T>(run: RunState, index: number, effect: () => Promise<T>): Promise<T> {
  return effect().catch(async (error: unknown) => {
    await releaseStep(run, run.wake, index);
    throw error;
  });
}

/** One step of the run, at the run's wake: checked, claimed, its effect made, the outcome answered (the caller records it). */
async function runStep(context: RunContext, run: RunState, index: number, nowMs: number): Promise<StepOutcome> {
  const step = context.definition.steps[index]!;
  // A step after another is due when it is reached; a wait's own due time replaces that.
  const current = { ...run.steps[index]!, dueAt: run.steps[index]!.dueAt ?? iso(nowMs) };
  let body = '';
  switch (step.type) {
    case 'wait':
      return waitStep(context, step, current, nowMs);
    case 'send_sms': {
      body = renderTemplate(step.template, templateValues(context));
      const checked = smsCheck(context, index, body, current, nowMs);
      if (checked) return checked;
      if (context.definition.stopWhen.includes('lead.replied') && (await leadRepliedSince(run.organizationId, run.leadId, run.triggeredAt))) {
        return { kind: 'end', status: 'STOPPED', reason: 'lead.replied', step: current };
      }
      break;
    }
    // Nothing to check before these are claimed.
    case 'notify_member':
    case 'set_lead_status':
    case 'add_note':
    case 'webhook':
      break;
    default:
      return unhandledStep(step);
  }
  if (!(await claimStep(run, index, run.wake, nowMs, STEP_LEASE_MS))) return { kind: 'gone' };
  // The first claim's time stays the step's: an SMS's id is made from it, so a delivery after a crash finds the same message.
  const atMs = current.at ? Date.parse(current.at) : nowMs;
  const outcome = await effectOnce(run, index, async () => {
    const made = await runEffect({ context, run, index, atMs }, step, current, body);
    if (made !== RUN_MOVED) await afterEffect(run.id, index);
    return made;
  });
  return outcome === RUN_MOVED ? { kind: 'gone' } : afterEffectOutcome(current, outcome, atMs);
}

/**
 * Makes the run's schedule for step `index` at `atMs` under the next wake, then moves the run to it. A twin delivery
 * makes the same schedule (same name) and loses the move; a schedule whose move lost wakes a run at another wake, and
 * does nothing.
 */
async function scheduleStep(run: RunState, index: number, steps: RunStep[], atMs: number): Promise<void> {
  const wake = run.wake + 1;
  const scheduleName = `${run.id}-${index}-${wake}`;
  await automationEngine().scheduler.create(scheduleName, atMs, { kind: 'advance', organizationId: run.organizationId, runId: run.id, wake });
  await moveRun(run, run.wake, index, { steps, stepIndex: index, status: 'WAITING', wake, nextStepAt: iso(atMs), scheduleName, updatedAt: iso(clock.now()) });
}

/** Records one step's outcome; false when the run is no longer ours to move (ended, scheduled, or moved by a twin). */
async function record(run: RunState, index: number, outcome: Exclude<StepOutcome, { kind: 'gone' }>): Promise<RunState | undefined> {
  const steps = run.steps.map((step, i) => (i === index ? outcome.step : step));
  const at = iso(clock.now());
  if (outcome.kind === 'later') return void (await scheduleStep(run, index, steps, outcome.at));
  if (outcome.kind === 'end') {
    const reasons = outcome.status === 'STOPPED' ? { stoppedReason: outcome.reason } : { failedReason: outcome.reason };
    return void (await endRun(run, { status: outcome.status, ...reasons, steps }, at));
  }
  const moved = await moveRun(run, run.wake, index, { steps, stepIndex: index + 1, status: 'RUNNING', updatedAt: at });
  return moved ? { ...run, steps, stepIndex: index + 1 } : undefined;
}

/**
 * Wakes a run at its current step, if it still holds the message's wake (a stale or twin message does nothing), and
 * runs its steps until one is due later, the run ends, or it has no step left (COMPLETED).
 */
export async function advance(message: AdvanceMessage): Promise<void> {
  const { organizationId, runId, wake } = message;
  const state = await readRunState(organizationId, runId);
  if (!state || isEnded(state.status) || state.wake !== wake) return;
  const definition = await readAutomationDefinition(organizationId, state.automationId, state.automationVersion);
  if (!definition) return void (await endRun(state, { status: 'FAILED', failedReason: 'automation version not found', steps: state.steps }, iso(clock.now())));
  const context = await readRunContext(organizationId, definition, state.leadId, state.appointmentId);
  let run: RunState | undefined = state;
  for (let index = state.stepIndex; run && index < definition.steps.length; index++) {
    const outcome = await runStep(context, run, index, clock.now());
    if (outcome.kind === 'gone') return;
    run = await record(run, index, outcome);
  }
  if (run) await endRun(run, { status: 'COMPLETED', steps: run.steps }, iso(clock.now()));
}

import { queueOnlyEngine } from './sqs-step-queue';

/**
 * The engine that runs automations' steps, as the runner and the stream consumer see it: a queue of step messages
 * (SQS deployed, in process under `npm start`) and a scheduler that sends a message to that queue at a time
 * (EventBridge Scheduler one-time schedules deployed, timers on the clock locally). Both are put in place once per
 * container; the step code is the same everywhere.
 */

/** Wake a run at its current step, if the run still holds this `wake` token (a stale or twin delivery does nothing). */
export interface AdvanceMessage {
  kind: 'advance';
  organizationId: string;
  runId: string;
  wake: number;
}
/** Recompute the due time of a run's wait anchored on a record that moved (an appointment's new start). */
export interface RescheduleMessage {
  kind: 'reschedule';
  organizationId: string;
  runId: string;
}
/** Delete the schedule of a run that stopped. */
export interface CleanupMessage {
  kind: 'cleanup';
  organizationId: string;
  runId: string;
  scheduleName: string;
}
export type StepMessage = AdvanceMessage | RescheduleMessage | CleanupMessage;

export interface StepQueue {
  send(messages: readonly StepMessage[]): Promise<void>;
}

export interface StepScheduler {
  /** Sends `message` to the step queue at `atMs`; creating one that exists (same name) succeeds. */
  create(name: string, atMs: number, message: StepMessage): Promise<void>;
  /** Deletes it; one already gone (fired, or deleted) succeeds. */
  delete(name: string): Promise<void>;
}

export interface AutomationEngine {
  queue: StepQueue;
  scheduler: StepScheduler;
}

let engine: AutomationEngine | undefined;

/** Puts the engine in place: the deployed one from the environment (./sqs-step-queue.ts, ./eventbridge-scheduler.ts), or the local one. */
export function setAutomationEngine(next: AutomationEngine): void {
  engine = next;
}

/**
 * The engine in place; deployed, a function with none put in place (the stream consumer, the routes that enrol and
 * cancel) makes the queue-only one from its environment at its first use (./sqs-step-queue.ts); the runner puts its own
 * in place at import (../runner-handler.ts).
 */
export function automationEngine(): AutomationEngine {
  engine ??= queueOnlyEngine();
  if (!engine) throw new Error('No automation engine is in place: the runner and the stream consumer need one (setAutomationEngine)');
  return engine;
}

/** Called after each step's effect, before it is recorded; tests replace it to fail between the two. */
export let afterEffect: (runId: string, stepIndex: number) => Promise<void> = async () => {};
export function setAfterEffect(hook: typeof afterEffect): void {
  afterEffect = hook;
}

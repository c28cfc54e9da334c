import { asWriter, type Writer } from '#shared/audit/writer';
import { eachMessage } from '#shared/queue-batch';
import type { StepMessage } from './engine';
import { stepMessageOf, type ScheduledSend } from './scheduled-send';
import { advance } from './runner';
import { cleanup, reschedule } from '../runs/stops';

/** A run writes as itself: the audit log names the run, and a status it sets is known for its own (it stops no run of its own). */
const runWriter = (runId: string): Writer => ({ keyId: null, keyName: null, requestId: runId, method: null, path: null, via: 'automation' });

/** One message of the step queue: a run woken, a wait moved, a schedule deleted. */
export function runStepMessage(message: StepMessage): Promise<void> {
  return asWriter(runWriter(message.runId), () => {
    if (message.kind === 'advance') return advance(message);
    if (message.kind === 'reschedule') return reschedule(message);
    return cleanup(message);
  });
}

/**
 * The step queue's consumer: the batch's messages side by side (each is one run's), a message that threw reported
 * back alone, so SQS delivers only it again; every message is safe to deliver twice (the run's wake and step claim).
 */
export const handler = eachMessage<StepMessage | ScheduledSend>((message) => runStepMessage(stepMessageOf(message)), 'automation step failed; SQS will deliver it again');

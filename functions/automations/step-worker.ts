import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { StepMessage } from './engine';

// Contract stub: the runner's worker replaces this file, keeping these exports.

/** One step message, as the in-process queue of `npm start` hands it (and the handler each SQS record's body). */
export async function runStepMessage(message: StepMessage): Promise<void> {
  void message;
}

/** The step queue's consumer: a batch of step messages, the failed ones answered for SQS to hand again. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  void event;
  return { batchItemFailures: [] };
}

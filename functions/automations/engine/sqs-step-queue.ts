import type { AutomationEngine, StepMessage, StepQueue } from './engine';
import { stepMessageGroup } from './step-group';

/** SendMessageBatch takes ten messages at most; a step message is a few ids, far under its size limit. */
const BATCH = 10;

/** The SQS client, loaded and made at the first send (shared/aws/sqs.ts): most of the stream consumer's batches start no run. */
const sqsModule = () => import('#shared/aws/sqs');

/**
 * The deployed step queue: SendMessageBatch to `queueUrl`, failing (so the caller's attempt is retried) when SQS refuses
 * any message. Each message's group is its organization: on a standard queue that makes it an SQS fair queue, so one
 * organization's burst (a bulk enrolment of thousands of leads) holds back its own steps, not every organization's,
 * and order and throughput stay a standard queue's (docs/decisions/operations.md).
 */
export function sqsStepQueue(queueUrl: string): StepQueue {
  return {
    async send(messages) {
      for (let start = 0; start < messages.length; start += BATCH) {
        const entries = messages.slice(start, start + BATCH).map((message, i) => ({ Id: String(i), MessageBody: stepMessageBody(message), MessageGroupId: stepMessageGroup(message) }));
        const { sqs, SendMessageBatchCommand } = await sqsModule();
        const { Failed } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
        if (Failed?.length) throw new Error(`SQS refused ${Failed.length} automation step messages: ${Failed[0]!.Code} ${Failed[0]!.Message ?? ''}`);
      }
    },
  };
}

/** One step message as SQS carries it (the body the runner's handler parses, and a schedule's Input). */
export const stepMessageBody = (message: StepMessage): string => JSON.stringify(message);

/**
 * The engine of a deployed function that queues steps but schedules none (the stream consumer, the routes that enrol
 * and cancel): the step queue from AUTOMATION_QUEUE_URL, read once. Only the runner creates and deletes schedules
 * (../runner-handler.ts); the others send it `cleanup` and `reschedule` messages. None when the variable is unset
 * (the local server puts its own engine in place).
 */
export function queueOnlyEngine(): AutomationEngine | undefined {
  const queueUrl = process.env.AUTOMATION_QUEUE_URL;
  if (!queueUrl) return undefined;
  const refuse = async () => {
    throw new Error('Only the automation step runner creates and deletes schedules: queue a reschedule or cleanup message instead');
  };
  return { queue: sqsStepQueue(queueUrl), scheduler: { create: refuse, delete: refuse } };
}

import type { SQSClient } from '@aws-sdk/client-sqs';
import type { AutomationEngine, StepMessage, StepQueue } from './engine';
import type * as SqsSend from './sqs-send';
import { stepMessageGroup } from './step-group';

/** SendMessageBatch takes ten messages at most; a step message is a few ids, far under its size limit. */
const BATCH = 10;

/** How a function has the SQS client (./sqs-send.ts): the module imported with it, or import() at the first send. */
export type SqsModule = () => Promise<typeof SqsSend>;

let client: SQSClient | undefined;
/** One client per container, made on the first send: most of the stream consumer's batches start no run. */
const sqs = async (sqsModule: SqsModule) => (client ??= new (await sqsModule()).SQSClient({}));

/**
 * The deployed step queue: SendMessageBatch to `queueUrl`, failing (so the caller's attempt is retried) when SQS refuses
 * any message. Each message's group is its organization: on a standard queue that makes it an SQS fair queue, so one
 * organization's burst (a bulk enrolment of thousands of leads) holds back its own steps, not every organization's,
 * and order and throughput stay a standard queue's (docs/decisions/operations.md).
 */
export function sqsStepQueue(queueUrl: string, sqsModule: SqsModule): StepQueue {
  return {
    async send(messages) {
      for (let start = 0; start < messages.length; start += BATCH) {
        const entries = messages.slice(start, start + BATCH).map((message, i) => ({ Id: String(i), MessageBody: stepMessageBody(message), MessageGroupId: stepMessageGroup(message) }));
        const { SendMessageBatchCommand } = await sqsModule();
        const { Failed } = await (await sqs(sqsModule)).send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
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
 * (./runner-handler.ts); the others send it `cleanup` and `reschedule` messages. None when the variable is unset
 * (the local server puts its own engine in place).
 */
export function queueOnlyEngine(sqsModule: SqsModule): AutomationEngine | undefined {
  const queueUrl = process.env.AUTOMATION_QUEUE_URL;
  if (!queueUrl) return undefined;
  const refuse = async () => {
    throw new Error('Only the automation step runner creates and deletes schedules: queue a reschedule or cleanup message instead');
  };
  return { queue: sqsStepQueue(queueUrl, sqsModule), scheduler: { create: refuse, delete: refuse } };
}

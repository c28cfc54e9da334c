import { WEBHOOK_LIMITS } from './limits';
import type { DeliveryJob, DeliveryQueue } from './queue';
import { clock } from '#shared/clock';

/** SQS delays a message by at most 15 minutes; a job due later comes back early and is sent on again. */
const MAX_DELAY_SECONDS = 900;
const BATCH = 10;
const MAX_JOB_BYTES = WEBHOOK_LIMITS.maxJobBytes;

/**
 * Jobs in SendMessageBatch calls of at most 10 messages and WEBHOOK_LIMITS.maxJobBytes in all: a job carries its event whole, so
 * ten of one large record's subscribers would pass the batch's limit together.
 */
export function batchesOf<T>(bodies: T[], bytesOf: (body: T) => number): T[][] {
  const batches: T[][] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = bytesOf(body);
    const last = batches.at(-1);
    if (last && last.length < BATCH && bytes + size <= MAX_JOB_BYTES) {
      last.push(body);
      bytes += size;
    } else {
      batches.push([body]);
      bytes = size;
    }
  }
  return batches;
}

const delayOf = (job: DeliveryJob) => Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil((Date.parse(job.notBefore) - clock.now()) / 1000)));

/**
 * The deployed queue: WEBHOOK_QUEUE_URL, and WEBHOOK_DLQ_URL for jobs whose retries ran out. Its client is loaded and
 * made on the first job sent, once per container (shared/aws/sqs.ts): the stream consumer's records mostly have no
 * subscriber, and the delivery function sends only retries, so most of their cold starts never need it.
 */
export function sqsDeliveryQueue(queueUrl: string, deadLetterUrl: string): DeliveryQueue {
  const sqsModule = () => import('#shared/aws/sqs');
  return {
    async send(jobs) {
      const messages = jobs.map((job) => ({ MessageBody: JSON.stringify(job), DelaySeconds: delayOf(job) }));
      for (const batch of batchesOf(messages, (message) => Buffer.byteLength(message.MessageBody))) {
        const entries = batch.map((message, i) => ({ Id: String(i), ...message }));
        const { sqs, SendMessageBatchCommand } = await sqsModule();
        const { Failed } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
        if (Failed?.length) throw new Error(`SQS refused ${Failed.length} delivery jobs: ${Failed[0]!.Code} ${Failed[0]!.Message ?? ''}`);
      }
    },
    async deadLetter(job, reason) {
      const { sqs, SendMessageCommand } = await sqsModule();
      await sqs().send(new SendMessageCommand({ QueueUrl: deadLetterUrl, MessageBody: JSON.stringify({ ...job, reason }) }));
    },
  };
}

/** In Lambda the queue comes from the environment the stack sets. */
export function configuredDeliveryQueue(): DeliveryQueue | undefined {
  const queueUrl = process.env.WEBHOOK_QUEUE_URL;
  if (!queueUrl) return undefined;
  const deadLetterUrl = process.env.WEBHOOK_DLQ_URL;
  if (!deadLetterUrl) throw new Error('Missing required environment variable WEBHOOK_DLQ_URL (WEBHOOK_QUEUE_URL is set)');
  return sqsDeliveryQueue(queueUrl, deadLetterUrl);
}

import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryJob, DeliveryQueue } from './queue';

/** SQS delays a message by at most 15 minutes; a job due later comes back early and is sent on again. */
const MAX_DELAY_SECONDS = 900;
const BATCH = 10;

const delayOf = (job: DeliveryJob) => Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil((Date.parse(job.notBefore) - Date.now()) / 1000)));

/**
 * The deployed queue: WEBHOOK_QUEUE_URL, and WEBHOOK_DLQ_URL for jobs whose retries ran out. Its client is made on the
 * first job sent, once per container: the stream consumer's records mostly have no subscriber, and the delivery
 * function sends only retries, so most of their cold starts never need it.
 */
export function sqsDeliveryQueue(queueUrl: string, deadLetterUrl: string): DeliveryQueue {
  let client: SQSClient | undefined;
  const sqs = () => (client ??= new SQSClient({}));
  return {
    async send(jobs) {
      for (let start = 0; start < jobs.length; start += BATCH) {
        const entries = jobs.slice(start, start + BATCH).map((job, i) => ({ Id: String(i), MessageBody: JSON.stringify(job), DelaySeconds: delayOf(job) }));
        const { Failed } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
        if (Failed?.length) throw new Error(`SQS refused ${Failed.length} delivery jobs: ${Failed[0]!.Code} ${Failed[0]!.Message ?? ''}`);
      }
    },
    async deadLetter(job, reason) {
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

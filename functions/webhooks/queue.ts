import { configuredDeliveryQueue } from './sqs-queue';

/** An event as the API shows it and a receiver gets it. */
export interface WebhookEvent {
  id: string;
  type: string;
  occurredAt: string;
  organizationId: string;
  data: Record<string, unknown>;
  /** On a `*.updated` event: the changed fields' values before the change. */
  previousAttributes?: Record<string, unknown>;
}

/** One event due at one subscription; the same job travels through every retry with `attempt` counting up. */
export interface DeliveryJob {
  organizationId: string;
  webhookId: string;
  event: WebhookEvent;
  attempt: number;
  /** When the first attempt was queued: retries stop 24 hours after it. */
  firstQueuedAt: string;
  /** Not to be attempted before this time (a retry's backoff). */
  notBefore: string;
  /** The PENDING delivery record its first attempt completes (a redelivery); retries record attempts of their own. */
  deliveryId?: string;
  /** How often this attempt found its organization's delivery slots all taken and was put back to wait; not an attempt. */
  waits?: number;
}

/**
 * Where delivery jobs wait. Deployed, an SQS queue read by the delivery function; in `npm start` and the tests,
 * an in-process queue that runs the same delivery code on a timer.
 */
export interface DeliveryQueue {
  send(jobs: DeliveryJob[]): Promise<void>;
  /** A job whose retries ran out. */
  deadLetter(job: DeliveryJob, reason: string): Promise<void>;
}

/** The in-process queue `npm start` and the tests put in its place: it also keeps what it dead-lettered, with why. */
export interface LocalDeliveryQueue extends DeliveryQueue {
  readonly deadLettered: (DeliveryJob & { reason: string })[];
}

let current: DeliveryQueue | undefined = configuredDeliveryQueue();

export function deliveryQueue(): DeliveryQueue {
  if (!current) throw new Error('No webhook delivery queue: WEBHOOK_QUEUE_URL is unset and none was set in process');
  return current;
}

/**
 * The composition seam: the SQS queue in Lambda (sqs-queue.ts), the in-process queue locally. Answers the queue put in
 * place: the local server waits for an in-process one to be idle (a test moving the clock, a job it made fall due).
 */
export function setDeliveryQueue<Q extends DeliveryQueue>(queue: Q): Q {
  current = queue;
  return queue;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { logger } from '../../shared/observability';
import type { DeliveryJob, DeliveryQueue } from '../../functions/webhooks/queue';
import { DEFAULT_CONCURRENCY } from '../cdk/options';

/** SQS's visibility timeout, in spirit: a job whose attempt threw runs again after this. */
const RETRY_THROWN_MS = 1_000;

export interface LocalDeliveryQueue extends DeliveryQueue {
  /** Jobs whose retries ran out, with why. */
  readonly deadLettered: (DeliveryJob & { reason: string })[];
  stop: () => void;
}

/**
 * The delivery queue of `npm start` and the tests: each job waits on a timer until it is due, then `deliver`, the code
 * the SQS-triggered function runs (its worker's `local`), takes it, in process, in a pool of `slots` attempts at once (as
 * many as the deployed function runs, DEFAULT_CONCURRENCY.deliveries): a job due while all are busy waits for one, as a message waits for a consumer.
 */
export function createLocalDeliveryQueue({ deliver, slots = DEFAULT_CONCURRENCY.deliveries }: { deliver: (job: DeliveryJob) => Promise<void>; slots?: number }): LocalDeliveryQueue {
  // A job runs as SQS would hand it over: in no request's context, so its writes are no caller's (the audit log's
  // writer, the organization's counter shards), though a request queued it and the timer would carry its context on.
  const outsideAnyRequest = AsyncLocalStorage.snapshot();
  const timers = new Set<NodeJS.Timeout>();
  const deadLettered: (DeliveryJob & { reason: string })[] = [];
  const due: DeliveryJob[] = [];
  let running = 0;
  let stopped = false;
  const run = () => {
    while (!stopped && running < slots && due.length) {
      const job = due.shift()!;
      running++;
      outsideAnyRequest(() => deliver(job))
        .catch((error: unknown) => {
          logger.error('webhook delivery attempt failed; retrying it', { error, webhookId: job.webhookId, eventId: job.event.id });
          schedule(job, RETRY_THROWN_MS);
        })
        .finally(() => {
          running--;
          run();
        });
    }
  };
  const schedule = (job: DeliveryJob, delayMs: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      due.push(job);
      run();
    }, delayMs);
    timers.add(timer);
  };
  return {
    deadLettered,
    async send(jobs) {
      for (const job of jobs) schedule(job, Math.max(0, Date.parse(job.notBefore) - Date.now()));
    },
    async deadLetter(job, reason) {
      deadLettered.push({ ...job, reason });
      logger.warn('webhook delivery dead-lettered', { webhookId: job.webhookId, eventId: job.event.id, reason });
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      due.length = 0;
    },
  };
}

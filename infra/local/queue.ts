import { AsyncLocalStorage } from 'node:async_hooks';
import { logger } from '#shared/observability';
import { DEFAULT_CONCURRENCY } from '../cdk/options';

/** SQS's visibility timeout, in spirit: a job whose attempt threw runs again after this. */
const RETRY_THROWN_MS = 1_000;

/** A message of a queue: `notBefore`, when it carries one, is when it becomes due (SQS's delay). */
type Job = { notBefore?: string };

/** A queue a resource declares, as `npm start` has it: what its senders call, and what it has dead-lettered. */
export interface LocalQueue<J extends Job> {
  send(jobs: J[]): Promise<void>;
  deadLetter(job: J, reason: string): Promise<void>;
  /** Jobs sent to its dead letters, with why. */
  readonly deadLettered: (J & { reason: string })[];
  stop: () => void;
}

/**
 * A declared queue under `npm start` and the tests: each job waits on a timer until it is due, then `take`, the code
 * its SQS-triggered worker runs (the worker's `local`), takes it, in process, in a pool of `slots` at once (as many as
 * the deployed consumer runs, DEFAULT_CONCURRENCY.deliveries): a job due while all are busy waits for one, as a
 * message waits for a consumer.
 */
export function createLocalQueue<J extends Job>(options: { what: string; logged: (job: J) => Record<string, unknown>; take: (job: J) => Promise<void>; slots?: number }): LocalQueue<J> {
  const { what, logged, take, slots = DEFAULT_CONCURRENCY.deliveries } = options;
  // A job runs as SQS would hand it over: in no request's context, so its writes are no caller's (the audit log's
  // writer, the organization's counter shards), though a request queued it and the timer would carry its context on.
  const outsideAnyRequest = AsyncLocalStorage.snapshot();
  const timers = new Set<NodeJS.Timeout>();
  const deadLettered: (J & { reason: string })[] = [];
  const due: J[] = [];
  let running = 0;
  let stopped = false;
  const run = () => {
    while (!stopped && running < slots && due.length) {
      const job = due.shift()!;
      running++;
      outsideAnyRequest(() => take(job))
        .catch((error: unknown) => {
          logger.error(`${what} attempt failed; retrying it`, { error, ...logged(job) });
          schedule(job, RETRY_THROWN_MS);
        })
        .finally(() => {
          running--;
          run();
        });
    }
  };
  const schedule = (job: J, delayMs: number) => {
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
      for (const job of jobs) schedule(job, job.notBefore ? Math.max(0, Date.parse(job.notBefore) - Date.now()) : 0);
    },
    async deadLetter(job, reason) {
      deadLettered.push({ ...job, reason });
      logger.warn(`${what} dead-lettered`, { ...logged(job), reason });
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      due.length = 0;
    },
  };
}

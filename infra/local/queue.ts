import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '#shared/clock';
import { logger } from '#shared/observability';
import { DEFAULT_CONCURRENCY } from '../cdk/options';

/** SQS's visibility timeout, in spirit: a job whose attempt threw runs again after this. */
const RETRY_THROWN_MS = 1_000;

/** A message of a queue: `notBefore`, when it carries one, is when it becomes due (SQS's delay). */
type Job = object;
const notBeforeOf = (job: Job): string | undefined => (job as { notBefore?: string }).notBefore;

/** A queue a resource declares, as `npm start` has it: what its senders call, and what it has dead-lettered. */
export interface LocalQueue<J extends Job> {
  send(jobs: J[]): Promise<void>;
  deadLetter(job: J, reason: string): Promise<void>;
  /** Jobs sent to its dead letters, with why. */
  readonly deadLettered: (J & { reason: string })[];
  /** Whether a job is being taken, or is due and waits for a slot (one waiting for a later time is not). */
  readonly busy: boolean;
  /** Resolves once it is not busy. */
  idle(): Promise<void>;
  stop: () => void;
}

/**
 * A queue whose waits follow the clock the code reads (shared/clock.ts), so a test moving that clock moves them: a
 * job that threw comes back after the visibility timeout, as SQS hands it again, and after `maxReceives` receives it
 * is dead-lettered.
 */
export interface OnClock {
  clock: Clock;
  redeliverAfterMs: number;
  maxReceives: number;
}

type QueueOptions<J extends Job> = {
  what: string;
  logged: (job: J) => Record<string, unknown>;
  take: (job: J) => Promise<void>;
  slots?: number;
  onClock?: OnClock;
  /** A job's message group (its queue's `messageGroup`): slots go to the groups with the fewest jobs running first, as an SQS fair queue hands them. */
  group?: (job: J) => string;
};

/**
 * A declared queue under `npm start` and the tests: each job waits on a timer until it is due, then `take`, the code
 * its SQS-triggered worker runs (the worker's `local`), takes it, in process, in a pool of `slots` at once (as many as
 * the deployed consumer runs, DEFAULT_CONCURRENCY.deliveries): a job due while all are busy waits for one, as a
 * message waits for a consumer. With `group`, a freed slot takes the oldest due job of the group with the fewest jobs
 * running (ties: the group whose oldest job has waited longest), as an SQS fair queue hands the groups with fewer
 * messages in flight first: one group's burst waits on itself. Within a group, jobs are taken in the order they fell due.
 */
export function createLocalQueue<J extends Job>(options: QueueOptions<J>): LocalQueue<J> {
  return new InProcessQueue(options);
}

class InProcessQueue<J extends Job> implements LocalQueue<J> {
  readonly deadLettered: (J & { reason: string })[] = [];
  // A job runs as SQS would hand it over: in no request's context, so its writes are no caller's (the audit log's
  // writer, the organization's counter shards), though a request queued it and the timer would carry its context on.
  private readonly outsideAnyRequest = AsyncLocalStorage.snapshot();
  private readonly timers = new Set<() => void>();
  private readonly receives = new WeakMap<J, number>();
  /** Due jobs by group, each oldest first, with the order they fell due in. */
  private readonly due = new Map<string, { job: J; order: number }[]>();
  private dueCount = 0;
  private fellDue = 0;
  /** Jobs being taken, by group. */
  private readonly runningIn = new Map<string, number>();
  private readonly idleWaiters: (() => void)[] = [];
  private running = 0;
  /** Jobs sent to be taken at once, still on their zero-delay timer. */
  private dueNow = 0;
  private stopped = false;

  constructor(private readonly options: QueueOptions<J>) {}

  get busy(): boolean {
    return this.running > 0 || this.dueCount > 0 || this.dueNow > 0;
  }

  idle(): Promise<void> {
    return this.busy ? new Promise<void>((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  async send(jobs: J[]): Promise<void> {
    const now = this.options.onClock?.clock.now() ?? Date.now();
    for (const job of jobs) {
      const notBefore = notBeforeOf(job);
      this.schedule(job, notBefore ? Math.max(0, Date.parse(notBefore) - now) : 0);
    }
  }

  async deadLetter(job: J, reason: string): Promise<void> {
    this.deadLettered.push({ ...job, reason });
    logger.warn(`${this.options.what} dead-lettered`, { ...this.options.logged(job), reason });
  }

  stop(): void {
    this.stopped = true;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    this.due.clear();
    this.dueCount = 0;
    this.dueNow = 0;
    this.settled();
  }

  private settled(): void {
    if (!this.busy) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private fallDue(job: J): void {
    const group = this.options.group?.(job) ?? '';
    const jobs = this.due.get(group) ?? [];
    jobs.push({ job, order: this.fellDue++ });
    this.due.set(group, jobs);
    this.dueCount++;
  }

  /** The group a freed slot serves: the fewest jobs running, then the oldest waiting job. */
  private nextGroup(): string | undefined {
    let next: { group: string; running: number; order: number } | undefined;
    for (const [group, jobs] of this.due) {
      const running = this.runningIn.get(group) ?? 0;
      const order = jobs[0]!.order;
      if (!next || running < next.running || (running === next.running && order < next.order)) next = { group, running, order };
    }
    return next?.group;
  }

  private run(): void {
    const { take, slots = DEFAULT_CONCURRENCY.deliveries } = this.options;
    while (!this.stopped && this.running < slots && this.dueCount) {
      const group = this.nextGroup()!;
      const jobs = this.due.get(group)!;
      const { job } = jobs.shift()!;
      if (!jobs.length) this.due.delete(group);
      this.dueCount--;
      this.running++;
      this.runningIn.set(group, (this.runningIn.get(group) ?? 0) + 1);
      this.outsideAnyRequest(() => take(job))
        .catch((error: unknown) => this.failed(job, error))
        .finally(() => {
          this.running--;
          const left = this.runningIn.get(group)! - 1;
          if (left) this.runningIn.set(group, left);
          else this.runningIn.delete(group);
          this.run();
          this.settled();
        });
    }
  }

  private failed(job: J, error: unknown): void {
    const { what, logged, onClock } = this.options;
    const received = (this.receives.get(job) ?? 0) + 1;
    this.receives.set(job, received);
    if (onClock && received >= onClock.maxReceives) return void this.deadLetter(job, `failed ${received} receives (last: ${String(error)})`);
    logger.error(`${what} attempt failed; retrying it`, { error, ...logged(job) });
    this.schedule(job, onClock?.redeliverAfterMs ?? RETRY_THROWN_MS);
  }

  private schedule(job: J, delayMs: number): void {
    if (this.stopped) return;
    const { onClock } = this.options;
    const ready = () => {
      this.timers.delete(cancel);
      this.fallDue(job);
      this.run();
    };
    let cancel: () => void;
    if (onClock && delayMs > 0) cancel = onClock.clock.setTimer(onClock.clock.now() + delayMs, ready);
    else {
      // Due now, or on the wall's time: a real timer, which fires without anyone moving a clock.
      if (delayMs <= 0) this.dueNow++;
      const timer = setTimeout(() => {
        if (delayMs <= 0) this.dueNow--;
        ready();
        this.settled();
      }, delayMs);
      cancel = () => clearTimeout(timer);
    }
    this.timers.add(cancel);
  }
}

import type { Capability } from './routes/route';
import { queueSender } from './routes/queue-sender';
import { queueChannel, type QueueChannelDefinition, type WorkerDefinition } from './workers';

/** A long job an owner starts and polls (its record holds its progress): the worker's time for one. */
export const JOB_WORKER_TIMEOUT_SECONDS = 900;

/** What an owner's job queue says of itself; `jobQueue` gives the rest. */
export interface JobQueueOf<Job> {
  /** The queue's name and one message's kind, kebab-case, as `queueChannel` takes them. */
  name: string;
  one: string;
  /** The job in an owner's words, singular and plural (`bulk enrolment`, `Bulk enrolments`). */
  what: string;
  whatMany: string;
  /** What a job whose messages dead-lettered shows its owner: its status, stuck. */
  stuck: string;
  /** The in-process install of `npm start`'s queue, and what its log names of a job. */
  install: string;
  logged: (job: Job) => Record<string, unknown>;
  /** The capability's name for queuing a job. */
  senderName: string;
  /** The worker, less what every job's worker is: its trigger, alarm text and hang of its own. */
  worker: Omit<WorkerDefinition, 'trigger' | 'errorsAlarm'> & { alarmId: string };
}

/**
 * The queue of an owner's long jobs (a bulk enrolment, a recount), its sender and its worker. One message is one job,
 * run one at a time (batches of one, so a timeout fails no other), kept a day. A job that threw is marked FAILED before
 * the message is handed again, so a second receive finds it done; messages dead-letter only when even that mark failed
 * (the table unreachable), which pages. Its retries wait on the clock the code reads, as SQS's do.
 */
export function jobQueue<Job>({ name, one, what, whatMany, stuck, install, logged, senderName, worker: { alarmId, ...worker } }: JobQueueOf<Job>): {
  channel: QueueChannelDefinition;
  sender: Capability;
  worker: WorkerDefinition;
} {
  const channel = queueChannel({
    name,
    one,
    retentionDays: 1,
    batch: { size: 1, functionTimeoutSeconds: JOB_WORKER_TIMEOUT_SECONDS },
    deadLetters: { retentionDays: 14, maxReceiveCount: 3, meaning: `${whatMany} an owner started could not be run or marked three times: ${stuck}.` },
    local: { install, what, logged, followsClock: true },
  });
  return {
    channel,
    sender: queueSender({ name: senderName, to: channel, reachesOutside: false }),
    worker: {
      ...worker,
      trigger: { kind: 'queue', queue: channel.name },
      errorsAlarm: { id: alarmId, meaning: `${whatMany} failed in three 5-minute periods in a row: each is marked FAILED for its owner to start again.` },
    },
  };
}

import type { WorkerDefinition } from '#shared/resource';
import { queueChannel } from '#shared/workers';
import { queueSender } from '#shared/routes/queue-sender';

/** A recount to run: the worker reads its record, so a message handed again finds it done. */
export interface ReportRebuildJob {
  organizationId: string;
  rebuildId: string;
}

/** The worker's time: a recount reads every record of the organization and rewrites what differs, minutes for a large one. */
export const REBUILD_WORKER_TIMEOUT_SECONDS = 900;

/**
 * The queue of recounts, with its dead letters. One message is one organization's recount, one at a time (batches of
 * one, so a timeout fails no other). A recount that threw is marked FAILED before the message is handed again, so a
 * second receive finds it done; messages dead-letter only when even that mark failed (the table unreachable), which
 * pages.
 */
export const reportRebuilds = queueChannel({
  name: 'report-rebuilds',
  one: 'report-rebuild',
  retentionDays: 1,
  batch: { size: 1, functionTimeoutSeconds: REBUILD_WORKER_TIMEOUT_SECONDS },
  deadLetters: { retentionDays: 14, maxReceiveCount: 3, meaning: 'Report recounts an owner started could not be run or marked three times: they stay QUEUED or running until their lease lapses.' },
  // Its retries wait on the clock the code reads, as SQS's do.
  local: { install: 'rebuild-start#setReportRebuildQueue', what: 'report recount', logged: (job: ReportRebuildJob) => ({ organizationId: job.organizationId, rebuildId: job.rebuildId }), followsClock: true },
});

/** Queuing recounts: the queue's URL, and SendMessage to it. */
export const reportRebuildQueueSender = queueSender({ name: 'reportRebuildQueueSender', to: reportRebuilds, reachesOutside: false });

/**
 * The worker: each recount through `runReportRebuild` (./rebuild-jobs.ts), which reads the organization's records and
 * day counters, rewrites what differs (./rebuild.ts) and records its progress on the recount's item.
 */
export const reportRebuildWorker: WorkerDefinition = {
  name: 'RebuildReports',
  handler: 'rebuild-worker',
  trigger: { kind: 'queue', queue: reportRebuilds.name },
  // What the admin CLI's rebuild reads and writes (every record's partitions and the reports'), and the recount's item.
  dynamodb: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
  // The inquiries, SMS messages, appointments and automations' runs, each listed by an index (./recount.ts).
  indexes: ['gsi1', 'gsi2'],
  errorsAlarm: { id: 'RebuildReportsFailing', meaning: 'Report recounts failed in three 5-minute periods in a row: each is marked FAILED for its owner to start again.' },
  local: 'rebuild-jobs#runReportRebuild',
};

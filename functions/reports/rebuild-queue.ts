import { jobQueue } from '#shared/job-queue';

/** A recount to run: the worker reads its record, so a message handed again finds it done. */
export interface ReportRebuildJob {
  organizationId: string;
  rebuildId: string;
}

/**
 * The queue of recounts, queuing them, and the worker: each recount through `runReportRebuild` (./rebuild-jobs.ts),
 * which reads the organization's records and day counters, rewrites what differs (./rebuild.ts) and records its
 * progress on the recount's item: minutes for a large organization.
 */
export const {
  channel: reportRebuilds,
  sender: reportRebuildQueueSender,
  worker: reportRebuildWorker,
} = jobQueue<ReportRebuildJob>({
  name: 'report-rebuilds',
  one: 'report-rebuild',
  what: 'report recount',
  whatMany: 'Report recounts',
  stuck: 'they stay QUEUED or running until their lease lapses',
  install: 'rebuild-start#setReportRebuildQueue',
  logged: (job) => ({ organizationId: job.organizationId, rebuildId: job.rebuildId }),
  senderName: 'reportRebuildQueueSender',
  worker: {
    name: 'RebuildReports',
    handler: 'rebuild-worker',
    // What the admin CLI's rebuild reads and writes (every record's partitions and the reports'), and the recount's item.
    dynamodb: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    // The inquiries, SMS messages, appointments and automations' runs, each listed by an index (./recount.ts).
    indexes: ['gsi1', 'gsi2'],
    alarmId: 'RebuildReportsFailing',
    local: 'rebuild-jobs#runReportRebuild',
  },
});

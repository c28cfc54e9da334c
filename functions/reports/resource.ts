import { defineResource, namedComponents } from '#shared/resource';
import { COUNTED_ENTITIES, reportKeys, reportKeySamples } from './entity';
import * as examples from './examples';
import { reportRoutes } from './routes';
import { ReportFunnel, ReportSummary, ReportTimeseries } from './schema';
import { ReportRebuild } from './rebuild-schema';
import { reportRebuilds, reportRebuildWorker } from './rebuild-queue';

/**
 * The pipeline in numbers: counters per organization per local day, kept from the table's stream by CountReports,
 * read by three reports with the organization's item and one Query each.
 */
export const reports = defineResource({
  name: 'reports',
  tags: { Reports: 'The pipeline in numbers over a range of days: what came in, how fast it was answered, what was booked, won and lost.' },
  routes: reportRoutes,
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  components: namedComponents({ ReportSummary, ReportTimeseries, ReportFunnel, ReportRebuild }, examples),
  // The table stream's second reader (DynamoDB Streams advise at most two per shard): it keeps the day counters, so a
  // counting fault holds back no event or webhook, and RecordEvents' faults hold back no count (functions/reports/count.ts).
  workers: [
    {
      name: 'CountReports',
      handler: 'count',
      trigger: {
        kind: 'stream',
        failures: { name: 'ReportCountFailures', meaning: 'Stream records failed every retry: their changes are missing from the reports until replayed or rebuilt' },
        lag: { id: 'ReportCountFallingBehind', meaning: 'The reports lag their changes by more than 5 minutes: the counting consumer is failing or too slow.' },
        // One batch of a shard at a time (no parallelization): each record's transaction adds to its organization's day
        // items, which batches side by side would contend for. Nothing waits on a count as a text waits on an event.
        entities: COUNTED_ENTITIES,
      },
      // The organization's timezone and a lead's facts; the transaction's marker Put, the day items' ADDs, the facts'
      // Put or Delete.
      dynamodb: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    },
    // A recount an owner started (POST /v1/reports/rebuilds), off the request: it reads every record.
    reportRebuildWorker,
  ],
  channels: [reportRebuilds],
  keys: [{ builders: reportKeys, samples: reportKeySamples }],
});

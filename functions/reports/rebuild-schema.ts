import * as v from 'valibot';
import { JobCount, jobFailure, jobProgress, jobTimes, PrefixedId } from '#shared/schema';

/** Where a recount is: waiting for the worker, counting the records, writing what differs, then done or failed. */
export const REBUILD_STATUSES = ['QUEUED', 'COUNTING', 'WRITING', 'SUCCEEDED', 'FAILED'] as const;
export type RebuildStatus = (typeof REBUILD_STATUSES)[number];

export const ReportRebuild = v.object({
  id: v.string(),
  status: v.pipe(v.picklist(REBUILD_STATUSES), v.description('QUEUED, then COUNTING the organization’s records, then WRITING the day counters and lead facts that differ, then SUCCEEDED or FAILED.')),
  progress: jobProgress('The writes made of those to make: `total` is null until the records are counted, and 0 when the reports were right.'),
  daysChanged: v.pipe(v.nullable(JobCount), v.description('Days whose counters were wrong and are rewritten; null until it SUCCEEDED.')),
  daysUnchanged: v.pipe(v.nullable(JobCount), v.description('Days whose counters were right; null until it SUCCEEDED.')),
  factsRewritten: v.pipe(v.nullable(JobCount), v.description('Leads whose counted history was wrong and is rewritten; null until it SUCCEEDED.')),
  failure: jobFailure('Nothing it wrote was wrong: start another.'),
  ...jobTimes,
});
export type ReportRebuild = v.InferOutput<typeof ReportRebuild>;

export const ReportRebuildResponse = v.object({ rebuild: ReportRebuild });

export const RebuildIdPath = v.object({ rebuildId: PrefixedId('rebuild', 'rebuildId', { label: 'Report recount' }) });

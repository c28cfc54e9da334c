import { eachMessage } from '#shared/queue-batch';
import { runReportRebuild } from './rebuild-jobs';
import type { ReportRebuildJob } from './rebuild-queue';

/** The recount worker as Lambda runs it: a batch of one recount. */
export const handler = eachMessage<ReportRebuildJob>(runReportRebuild, 'report recount failed; it is marked FAILED');

import { clock } from '#shared/clock';
import { config } from '#shared/config';
import { ApiError } from '#shared/errors';
import { newId } from '#shared/ids';
import { queueSeam } from '#shared/aws/queue-seam';
import { transact, type TransactWrite } from '#shared/store/transact';
import { TTL_ATTRIBUTE } from '#shared/table';
import { REPORT_ENTITIES, reportKeys } from './entity';
import { activeRebuildId, finish, iso, REBUILD_LEASE_MS, toItem } from './rebuild-jobs';
import { reportRebuilds, type ReportRebuildJob } from './rebuild-queue';
import type { ReportRebuild } from './rebuild-schema';

const seam = queueSeam<ReportRebuildJob>(reportRebuilds.environment.queueUrl, reportRebuilds.local.what);

/** Where recounts wait for the worker: the SQS queue deployed, the in-process queue `npm start` installs. */
export const reportRebuildQueue = seam.queue;
export const setReportRebuildQueue = seam.set;

const rebuildRunning = (rebuildId: string | undefined) =>
  new ApiError(409, `A recount of the reports is under way${rebuildId ? ` (${rebuildId})` : ''}: wait for it to end, then start another if you still need one.`, 'REBUILD_RUNNING');

/**
 * A new recount, QUEUED: its record and the organization's one place (taken unless another recount holds it and its
 * lease runs) in one transaction, then its message. A message that cannot be sent leaves the recount FAILED and the
 * place free, and the request fails.
 */
export async function startReportRebuild(organizationId: string): Promise<ReportRebuild> {
  const atMs = clock.now();
  const rebuild: ReportRebuild = { id: newId('rebuild', new Date(atMs)), status: 'QUEUED', progress: { done: 0, total: null }, daysChanged: null, daysUnchanged: null, factsRewritten: null, failure: null, createdAt: iso(atMs), updatedAt: iso(atMs), finishedAt: null };
  const place: TransactWrite = {
    item: {
      Put: {
        TableName: config.tableName,
        Item: { ...reportKeys.activeReportRebuild(organizationId), entity: REPORT_ENTITIES.rebuild, rebuildId: rebuild.id, leaseEndsAt: atMs + REBUILD_LEASE_MS, [TTL_ATTRIBUTE]: Math.ceil((atMs + REBUILD_LEASE_MS) / 1000) },
        ConditionExpression: 'attribute_not_exists(pk) OR leaseEndsAt <= :now',
        ExpressionAttributeValues: { ':now': atMs },
      },
    },
    onConditionFailed: () => rebuildRunning(undefined),
  };
  await transact([{ item: { Put: { TableName: config.tableName, Item: toItem(organizationId, rebuild), ConditionExpression: 'attribute_not_exists(pk)' } } }, place]).catch(async (error: unknown) => {
    if (error instanceof ApiError && error.code === 'REBUILD_RUNNING') throw rebuildRunning(await activeRebuildId(organizationId));
    throw error;
  });
  // Marked FAILED, the recount frees the organization's place too.
  await seam.sendOrFail({ organizationId, rebuildId: rebuild.id }, { named: 'recount', markFailed: () => finish(organizationId, rebuild.id, { status: 'FAILED', failure: 'It could not be queued.' }) });
  return rebuild;
}


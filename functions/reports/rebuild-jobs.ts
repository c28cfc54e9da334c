import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { clock } from '#shared/clock';
import { NotFoundError } from '#shared/errors';
import { transact, writeAlone } from '#shared/store/transact';
import { setFields } from '#shared/store/update-fields';
import { TTL_ATTRIBUTE } from '#shared/table';
import { REPORT_ENTITIES, reportKeys } from './entity';
import { rebuildReports, type RebuildProgress } from './rebuild';
import { JOB_WORKER_TIMEOUT_SECONDS } from '#shared/job-queue';
import type { ReportRebuildJob } from './rebuild-queue';
import { ReportRebuild, type RebuildStatus } from './rebuild-schema';

/** How long a recount's record is kept after it started, to be read back. */
const KEPT_DAYS = 30;

/**
 * How long a recount holds the organization's one place, unless it ends first: longer than its worker may run, so a
 * worker that died (its message handed again later) cannot leave the organization unable to start another for good.
 */
export const REBUILD_LEASE_MS = 2 * JOB_WORKER_TIMEOUT_SECONDS * 1000;

/** Progress is written at most this many times while writing (and at each change of phase): a recount's own writes stay few. */
const PROGRESS_WRITES = 50;

export const iso = (ms: number) => new Date(ms).toISOString();

export function toItem(organizationId: string, rebuild: ReportRebuild) {
  return { ...reportKeys.reportRebuild(organizationId, rebuild.id), entity: REPORT_ENTITIES.rebuild, ...rebuild, [TTL_ATTRIBUTE]: Math.ceil(Date.parse(rebuild.createdAt) / 1000) + KEPT_DAYS * 86_400 };
}

const fromItem = (item: Record<string, unknown>): ReportRebuild => v.parse(ReportRebuild, item);

export async function activeRebuildId(organizationId: string): Promise<string | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: reportKeys.activeReportRebuild(organizationId), ConsistentRead: true }));
  return Item && Number(Item.leaseEndsAt) > clock.now() ? String(Item.rebuildId) : undefined;
}

export async function getReportRebuild(organizationId: string, rebuildId: string): Promise<ReportRebuild> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: reportKeys.reportRebuild(organizationId, rebuildId), ConsistentRead: true }));
  if (!Item) throw new NotFoundError('Report recount not found');
  return fromItem(Item);
}

type Ending = { status: Extract<RebuildStatus, 'SUCCEEDED' | 'FAILED'> } & Partial<Pick<ReportRebuild, 'daysChanged' | 'daysUnchanged' | 'factsRewritten' | 'failure' | 'progress'>>;

/** The recount ended: its record says how, and the organization's place is freed if it still holds it. */
export async function finish(organizationId: string, rebuildId: string, ending: Ending): Promise<void> {
  const at = iso(clock.now());
  const ended = setFields(reportKeys.reportRebuild(organizationId, rebuildId), { ...ending, updatedAt: at, finishedAt: at }, { onConditionFailed: () => new NotFoundError('Report recount not found') });
  await transact([
    ended,
    {
      item: { Delete: { TableName: config.tableName, Key: reportKeys.activeReportRebuild(organizationId), ConditionExpression: 'attribute_not_exists(pk) OR rebuildId = :id', ExpressionAttributeValues: { ':id': rebuildId } } },
      // Another recount took the place after this one's lease lapsed: it is that one's to free.
      onConditionFailed: () => new PlaceTaken(),
    },
  ]).catch(async (error: unknown) => {
    if (!(error instanceof PlaceTaken)) throw error;
    await writeAlone(ended);
  });
}

class PlaceTaken extends Error {}

/** The recount's progress as it goes: written when its phase changes, at the first write, and then every 1/PROGRESS_WRITES of the writes. */
function progressRecorder(organizationId: string, rebuildId: string) {
  let phase: string | undefined;
  return async (progress: RebuildProgress) => {
    const step = progress.phase === 'WRITING' ? Math.max(1, Math.ceil(progress.total / PROGRESS_WRITES)) : 1;
    // The first write is shown at once, whatever the step: the owner sees it has begun.
    if (phase === progress.phase && progress.phase === 'WRITING' && progress.done % step !== 0 && progress.done !== 1) return;
    phase = progress.phase;
    const changes = progress.phase === 'COUNTING' ? { status: 'COUNTING' } : { status: 'WRITING', progress: { done: progress.done, total: progress.total } };
    await writeAlone(setFields(reportKeys.reportRebuild(organizationId, rebuildId), { ...changes, updatedAt: iso(clock.now()) }, { onConditionFailed: () => new NotFoundError('Report recount not found') }));
  };
}

/**
 * The worker's part: the recount of a message, unless its record says it ended (a message handed again). It counts
 * the records again and rewrites what differs (./rebuild.ts, as `npm run admin -- reports rebuild` does), recording
 * its progress; a recount that throws is marked FAILED, then throws, so the failure is counted and nothing runs it again.
 */
export async function runReportRebuild({ organizationId, rebuildId }: ReportRebuildJob): Promise<void> {
  const rebuild = await getReportRebuild(organizationId, rebuildId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  if (!rebuild || rebuild.status === 'SUCCEEDED' || rebuild.status === 'FAILED') return;
  try {
    const report = await rebuildReports(organizationId, { onProgress: progressRecorder(organizationId, rebuildId) });
    const written = report.daysChanged + report.factsRewritten;
    await finish(organizationId, rebuildId, { status: 'SUCCEEDED', daysChanged: report.daysChanged, daysUnchanged: report.daysUnchanged, factsRewritten: report.factsRewritten, progress: { done: written, total: written } });
  } catch (error) {
    await finish(organizationId, rebuildId, { status: 'FAILED', failure: 'The recount stopped on an error. Nothing it wrote was wrong: start another.' });
    throw error;
  }
}

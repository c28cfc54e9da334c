import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { createHash } from 'node:crypto';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { enableStream, localSigning } from './dynamodb-local';
import { patientWhileStartingUp } from './patience';

/** The stream consumer: with ReportBatchItemFailures it may answer which record failed. */
export type StreamBatchHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

export interface TableStream {
  /** Resolves once every change committed before the call has been handed to the handler (and it returned). */
  caughtUp: () => Promise<void>;
  /** Reads the stream now rather than at the next idle poll: something was probably written. */
  nudge: () => void;
  stop: () => Promise<void>;
}

/** Reading DynamoDB Local's streams costs it CPU, so an idle stream is read once a second; a nudge reads it at once. */
const IDLE_POLL_MS = 1_000;
const RETRY_MS = 500;
/**
 * At most this often, however busy: each read costs DynamoDB Local a query of its stream store. The tests read more
 * often (`minPollGapMs`): a test waiting for the stream to catch up (or moving its clock, which waits for it after every
 * timer) waits out this gap at least twice each time, which made most of the time of the files that move the clock.
 */
export const MIN_POLL_GAP_MS = 100;
const BATCH_SIZE = 100;
/** Records one GetRecords call reads (the most it gives): the lanes are fed in as few reads of DynamoDB Local as can be. */
const READ_LIMIT = 1_000;

type Image = Record<string, unknown>;

/** DynamoDB Local's stream, read through the SDK, gives an empty map as `{}`; Lambda's event has `{"M": {}}`. */
function repairEmptyMaps(image: Image | undefined): Image | undefined {
  if (!image) return undefined;
  const repair = (value: unknown): unknown => {
    const attribute = value as { M?: Image; L?: unknown[] };
    if (Object.keys(attribute).length === 0) return { M: {} };
    if (attribute.M) return { M: repairEmptyMaps(attribute.M) };
    if (attribute.L) return { L: attribute.L.map(repair) };
    return value;
  };
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, repair(value)]));
}

/** The SDK's record → the shape Lambda's event source mapping hands a function (times in epoch seconds). */
export function asLambdaRecord(record: StreamRecord): DynamoDBStreamEvent['Records'][number] {
  const { dynamodb, ...rest } = record;
  const created = dynamodb?.ApproximateCreationDateTime;
  return {
    ...rest,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ...dynamodb,
      ApproximateCreationDateTime: created ? created.getTime() / 1000 : undefined,
      NewImage: repairEmptyMaps(dynamodb?.NewImage),
      OldImage: repairEmptyMaps(dynamodb?.OldImage),
    },
  } as DynamoDBStreamEvent['Records'][number];
}

/**
 * Where a partial batch response says to resume, as Lambda reads it: the index of the reported record with the lowest
 * sequence number, or -1 when none failed. An identifier that is empty or names no record of the batch fails the
 * whole batch (a throw, as Lambda treats it).
 */
export function resumeIndex(records: StreamRecord[], answer: DynamoDBBatchResponse | void): number {
  const failures = answer?.batchItemFailures ?? [];
  if (failures.length === 0) return -1;
  const indexes = failures.map(({ itemIdentifier }) => records.findIndex((record) => itemIdentifier && record.dynamodb?.SequenceNumber === itemIdentifier));
  if (indexes.some((index) => index < 0)) throw new Error(`The stream handler reported records not in its batch: ${JSON.stringify(failures)}`);
  return Math.min(...indexes);
}

/** Records read ahead of the handler, over all lanes: past it the reader waits for the lanes to take some. */
const READ_AHEAD = 10_000;

/** The lane of a record: its partition key's hash, as Lambda assigns a shard's records to its concurrent batches. */
export function laneOf(record: StreamRecord, lanes: number): number {
  if (lanes === 1) return 0;
  const key = JSON.stringify(record.dynamodb?.Keys?.pk ?? null);
  return createHash('sha256').update(key).digest().readUInt32BE(0) % lanes;
}

/** Whether a record passes a worker's filter on its item's `entity`, new or old (none: every record), as Lambda's event filtering does. */
export function passesFilter(record: StreamRecord, entities: ReadonlySet<string> | undefined): boolean {
  if (!entities) return true;
  const { NewImage, OldImage } = record.dynamodb ?? {};
  return [NewImage, OldImage].some((image) => entities.has(image?.entity?.S ?? ''));
}

/**
 * Reads the table's stream in DynamoDB Local and hands batches to the same stream handler Lambda runs, in process:
 * what the event source mapping does in AWS. With `parallelization` (Lambda's ParallelizationFactor), a shard's
 * records go to that many lanes by partition key, each handing its batches in order, one at a time, beside the others:
 * a key's records keep their order, and a backlog of some keys does not hold back the rest. A batch whose handler threw
 * is handed again; when the handler reports a failed record (ReportBatchItemFailures), that record and those after it
 * in its lane are handed again, the records before it never. With `entities`, the records of other items are read past,
 * as the worker's filter criteria drop them deployed: they take no place in a lane. `from: 'LATEST'` skips what an
 * earlier run already handled (a DATA_DIR restart).
 */
export async function startTableStream({ endpoint, tableName, handler, from = 'TRIM_HORIZON', parallelization = 1, entities, minPollGapMs = MIN_POLL_GAP_MS, onError }: {
  endpoint: string;
  tableName: string;
  handler: StreamBatchHandler;
  from?: 'TRIM_HORIZON' | 'LATEST';
  parallelization?: number;
  entities?: readonly string[];
  /** The shortest time between two reads of the stream (MIN_POLL_GAP_MS unless a test asks for less). */
  minPollGapMs?: number;
  onError: (error: unknown) => void;
}): Promise<TableStream> {
  const streamArn = await enableStream(endpoint, tableName);
  const passing = entities && new Set(entities);
  const streams = new DynamoDBStreamsClient({
    endpoint,
    ...localSigning(),
  });
  patientWhileStartingUp(streams.middlewareStack);

  /** Open shards and where reading them stands; a closed shard leaves the map, a new one joins from its start. */
  const shards = new Map<string, { iterator?: string; lastSequence?: string }>();
  const done = new Set<string>();
  const iteratorOf = async (shardId: string, type: 'TRIM_HORIZON' | 'LATEST' | 'AFTER_SEQUENCE_NUMBER', sequence?: string) =>
    (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequence }))).ShardIterator;

  async function discoverShards(initial: boolean) {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (shards.has(id) || done.has(id)) continue;
      shards.set(id, { iterator: await iteratorOf(id, initial ? from : 'TRIM_HORIZON') });
    }
  }

  let stopped = false;
  /** Records read and not yet handled, by lane, in the shard's order; `draining` while the lane's batches are handed. */
  const lanes = Array.from({ length: parallelization }, () => ({ records: [] as StreamRecord[], draining: undefined as Promise<void> | undefined }));
  const waiting = () => lanes.reduce((sum, lane) => sum + lane.records.length, 0);
  const lanesIdle = () => lanes.every((lane) => !lane.draining && lane.records.length === 0);
  /** Passes begun so far: a caller waiting to be caught up needs an idle pass begun after it asked, and idle lanes. */
  let passesBegun = 0;
  let lastIdlePass = 0;
  /**
   * The passes begun when a lane last finished handing its batches: what the handler wrote meanwhile (a webhook disabled
   * by its expiry's removal) is read only by a pass begun after, so an idle pass begun before proves nothing.
   */
  let handledBefore = 0;
  let waiters: { after: number; resolve: () => void }[] = [];
  const settle = () => {
    if (!lanesIdle()) return;
    const isCaughtUp = ({ after }: { after: number }) => Math.max(after, handledBefore) < lastIdlePass;
    const caughtUp = waiters.filter(isCaughtUp);
    waiters = waiters.filter((waiter) => !isCaughtUp(waiter));
    caughtUp.forEach(({ resolve }) => resolve());
  };

  /** Hands the lane's batches to the handler until it is empty, unless they are being handed already. */
  function drain(lane: (typeof lanes)[number]) {
    lane.draining ??= handOut(lane).finally(() => {
      lane.draining = undefined;
      handledBefore = passesBegun;
      settle();
      wake?.();
    });
  }

  /** The lane's batches in order; the position only moves on once the handler took a batch. */
  async function handOut(lane: (typeof lanes)[number]) {
    while (lane.records.length && !stopped) {
      const records = lane.records.slice(0, BATCH_SIZE);
      let failedAt: number;
      try {
        failedAt = resumeIndex(records, await handler({ Records: records.map(asLambdaRecord) }));
      } catch (error) {
        if (!stopped) onError(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      // The records before a failed one are done; it and those after it are handed again, after a pause as after a throw.
      lane.records.splice(0, failedAt >= 0 ? failedAt : records.length);
      if (failedAt >= 0) {
        onError(new Error(`Stream record ${records[failedAt]!.dynamodb!.SequenceNumber} failed; it and the ${lane.records.length - 1} records after it in its lane are handed again`));
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  /** One pass over every shard: its new records to their lanes; true when there were any. */
  async function pollOnce(): Promise<boolean> {
    let read = false;
    for (const [shardId, shard] of shards) {
      // After a failed read (DynamoDB Local restarted, an iterator expired) reading resumes after the last record read.
      shard.iterator ??= await iteratorOf(shardId, shard.lastSequence ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON', shard.lastSequence);
      const result = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: READ_LIMIT })).catch((error: unknown) => {
        shard.iterator = undefined;
        throw error;
      });
      const records = result.Records ?? [];
      for (const record of records) if (passesFilter(record, passing)) lanes[laneOf(record, parallelization)]!.records.push(record);
      shard.lastSequence = records.at(-1)?.dynamodb?.SequenceNumber ?? shard.lastSequence;
      shard.iterator = result.NextShardIterator;
      if (!result.NextShardIterator) {
        shards.delete(shardId);
        done.add(shardId);
      }
      read ||= records.length > 0;
    }
    for (const lane of lanes) if (lane.records.length) drain(lane);
    return read;
  }

  await discoverShards(true);
  let wake: (() => void) | undefined;
  let nudged = false;
  const nudge = () => {
    nudged = true;
    wake?.();
  };
  /** Sleeps `ms`; with `wakeable`, a nudge ends the sleep early (or skips it, when one came during the pass). */
  const sleep = (ms: number, wakeable: boolean) =>
    new Promise<void>((resolve) => {
      if (wakeable && nudged) return resolve();
      const timer = setTimeout(resolve, ms);
      if (wakeable)
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
    }).finally(() => {
      wake = undefined;
    });
  const loop = (async () => {
    let lastPassAt = -Infinity;
    while (!stopped) {
      // However often it is nudged, the stream is read at most once per gap; a nudge after a quiet spell reads at once.
      const gap = lastPassAt + minPollGapMs - Date.now();
      if (gap > 0) await sleep(gap, false);
      if (stopped) break;
      // Read ahead of the handler only so far: the lanes take some first.
      if (waiting() >= READ_AHEAD) {
        // Not woken by a nudge: a nudge pending here would make it a loop that never yields to I/O.
        await sleep(minPollGapMs, false);
        continue;
      }
      nudged = false;
      lastPassAt = Date.now();
      const pass = ++passesBegun;
      const read = await pollOnce().catch((error: unknown) => {
        if (!stopped) onError(error);
        return 'failed' as const;
      });
      if (read === false) {
        lastIdlePass = pass;
        settle();
      }
      if (stopped) break;
      if (read === 'failed') await sleep(RETRY_MS, false);
      else if (read === false) await sleep(IDLE_POLL_MS, true);
      if (pass % 20 === 0) await discoverShards(false).catch((error: unknown) => stopped || onError(error));
    }
  })();

  return {
    // An idle pass begun after the call (one begun before it may have read the stream before the caller's last write),
    // and every lane's records handled.
    caughtUp: () =>
      new Promise<void>((resolve) => {
        waiters.push({ after: passesBegun, resolve });
        nudge();
      }),
    nudge,
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
      await Promise.all(lanes.map((lane) => lane.draining));
      waiters.forEach(({ resolve }) => resolve());
      streams.destroy();
    },
  };
}

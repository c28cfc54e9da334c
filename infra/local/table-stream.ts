import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { enableStream, LOCAL_AWS_ENV } from './dynamodb-local';
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
/** At most this often, however busy: each read costs DynamoDB Local a query of its stream store. */
const MIN_POLL_GAP_MS = 100;
const BATCH_SIZE = 100;

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

/**
 * Reads the table's stream in DynamoDB Local and hands each batch to the same stream handler Lambda runs,
 * in process: what the event source mapping does in AWS, including retrying a batch whose handler threw and, when
 * the handler reports a failed record (ReportBatchItemFailures), handing that record and those after it again.
 * `from: 'LATEST'` skips what an earlier run already handled (a DATA_DIR restart).
 */
export async function startTableStream({ endpoint, tableName, handler, from = 'TRIM_HORIZON', onError }: {
  endpoint: string;
  tableName: string;
  handler: StreamBatchHandler;
  from?: 'TRIM_HORIZON' | 'LATEST';
  onError: (error: unknown) => void;
}): Promise<TableStream> {
  const streamArn = await enableStream(endpoint, tableName);
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: LOCAL_AWS_ENV.AWS_REGION,
    credentials: { accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID, secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY },
  });
  patientWhileStartingUp(streams.middlewareStack);

  /** Open shards and where reading them stands; a closed shard leaves the map, a new one joins from its start. */
  const shards = new Map<string, { iterator?: string; lastSequence?: string; resumeAt?: string }>();
  const done = new Set<string>();
  const iteratorOf = async (shardId: string, type: 'TRIM_HORIZON' | 'LATEST' | 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER', sequence?: string) =>
    (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequence }))).ShardIterator;

  async function discoverShards(initial: boolean) {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (shards.has(id) || done.has(id)) continue;
      shards.set(id, { iterator: await iteratorOf(id, initial ? from : 'TRIM_HORIZON') });
    }
  }

  /** One pass over every shard; true when any records were handled. */
  async function pollOnce(): Promise<boolean> {
    let handled = false;
    for (const [shardId, shard] of shards) {
      // After a failed read (DynamoDB Local restarted, an iterator expired) reading resumes after the last record handled.
      // After a failed record, reading resumes at it.
      shard.iterator ??= shard.resumeAt
        ? await iteratorOf(shardId, 'AT_SEQUENCE_NUMBER', shard.resumeAt)
        : await iteratorOf(shardId, shard.lastSequence ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON', shard.lastSequence);
      const result = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: BATCH_SIZE })).catch((error: unknown) => {
        shard.iterator = undefined;
        throw error;
      });
      const records = result.Records ?? [];
      // The position only moves on once the handler has taken the batch: a throw retries the same records.
      const failedAt = records.length ? resumeIndex(records, await handler({ Records: records.map(asLambdaRecord) })) : -1;
      if (failedAt >= 0) {
        // The records before the failed one are done; reading resumes at it (a pause first, as after a throw).
        shard.resumeAt = records[failedAt]!.dynamodb!.SequenceNumber!;
        shard.lastSequence = records[failedAt - 1]?.dynamodb?.SequenceNumber ?? shard.lastSequence;
        shard.iterator = undefined;
        throw new Error(`Stream record ${shard.resumeAt} failed; it and the ${records.length - failedAt - 1} records after it are handed again`);
      }
      if (records.length) shard.resumeAt = undefined;
      shard.lastSequence = records.at(-1)?.dynamodb?.SequenceNumber ?? shard.lastSequence;
      shard.iterator = result.NextShardIterator;
      if (!result.NextShardIterator) {
        shards.delete(shardId);
        done.add(shardId);
      }
      handled ||= records.length > 0;
    }
    return handled;
  }

  await discoverShards(true);
  let stopped = false;
  /** Passes begun so far: a caller waiting to be caught up needs an idle pass begun after it asked. */
  let passesBegun = 0;
  let waiters: { after: number; resolve: () => void }[] = [];
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
      const gap = lastPassAt + MIN_POLL_GAP_MS - Date.now();
      if (gap > 0) await sleep(gap, false);
      if (stopped) break;
      nudged = false;
      lastPassAt = Date.now();
      const pass = ++passesBegun;
      const busy = await pollOnce().catch((error: unknown) => {
        if (!stopped) onError(error);
        return 'failed' as const;
      });
      if (busy === false) {
        const caughtUp = waiters.filter(({ after }) => after < pass);
        waiters = waiters.filter(({ after }) => after >= pass);
        caughtUp.forEach(({ resolve }) => resolve());
      }
      if (stopped) break;
      if (busy === 'failed') await sleep(RETRY_MS, false);
      else if (busy === false) await sleep(IDLE_POLL_MS, true);
      if (pass % 20 === 0) await discoverShards(false).catch((error: unknown) => stopped || onError(error));
    }
  })();

  return {
    // An idle pass begun after the call: one begun before it may have read the stream before the caller's last write.
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
      waiters.forEach(({ resolve }) => resolve());
      streams.destroy();
    },
  };
}

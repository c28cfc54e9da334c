import { AsyncLocalStorage } from 'node:async_hooks';

/** The most shards an organization's counters may be spread over: a list reads them all in one BatchGetItem. */
export const MAX_COUNTER_SHARDS = 16;

const shardable: RegExp[] = [];

/**
 * Declares counters that may be spread over shards: the list counters every create of a busy organization writes.
 * Counters of one record, and those with conditions (limits, counters that exist exactly as long as their owner),
 * stay single. The entity module that names the counters declares them as it loads, so every function that writes
 * or reads them has.
 */
export function shardCounters(pattern: RegExp): void {
  shardable.push(pattern);
}

export const isShardable = (counter: string) => shardable.some((pattern) => pattern.test(counter));

const shardsOfRequest = new AsyncLocalStorage<number>();

/**
 * Runs `work` for an organization whose hot counters are spread over `shards` items (its `counterShards`
 * setting, passed by the authorizer): one item takes about 1 000 writes a second (500 in transactions), so a
 * tenant creating leads faster spreads each counter over several and reads them together.
 */
export function withCounterShards<T>(shards: number, work: () => Promise<T>): Promise<T> {
  return shardsOfRequest.run(Math.min(Math.max(1, Math.trunc(shards) || 1), MAX_COUNTER_SHARDS), work);
}

/** The shards of the organization this request is for; 1 outside a request (stream and SNS consumers write shard 0). */
export const counterShards = (): number => shardsOfRequest.getStore() ?? 1;

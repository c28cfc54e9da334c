import { config } from '../config';
import type { Key } from './keys';
import type { Versioned } from './versioned-record';
import { changedMeanwhile } from '../errors';
import { backoff, mayRetryContended } from './retry';
import { insertIfAbsent, stillHolds, transact, writeAlone, type TransactWrite } from './transact';

/** The conditional write lost a race: the item is no longer at the version that was read. */
export class StaleWrite extends Error {}

/** A lost race is read again and redone this many times, after a jittered backoff, before the caller is told to retry. */
export const MAX_STALE_ATTEMPTS = 8;

/**
 * Runs `attempt` (which reads, then writes on condition of what it read) until it succeeds. A StaleWrite
 * means another request won the race: wait a jittered backoff, so that many writers of one item spread
 * out, and run it again; after MAX_STALE_ATTEMPTS and CONTENDED_WRITE_BUDGET_MS the caller gets `onExhausted` (a
 * 409), never a 500.
 */
export async function retryOnStaleWrite<T>(attempt: (attempt: number) => Promise<T>, onExhausted: () => Error = changedMeanwhile): Promise<T> {
  const startedAt = Date.now();
  for (let tries = 1; ; tries++) {
    try {
      return await attempt(tries);
    } catch (error) {
      if (!(error instanceof StaleWrite)) throw error;
      if (!mayRetryContended(tries, startedAt, MAX_STALE_ATTEMPTS - 1)) throw onExhausted();
      await backoff(tries);
    }
  }
}

/** A Put of the whole item that succeeds only while the stored item is still at `version`. */
export function putIfVersion(item: Key & Record<string, unknown>, version: number): TransactWrite {
  return {
    item: {
      Put: { TableName: config.tableName, Item: item, ...stillHolds(['version', version]) },
    },
    onConditionFailed: () => new StaleWrite(),
  };
}

/** The versioned Put alone when nothing else moves with it, otherwise with the other writes in one transaction. */
export async function writeVersion(put: TransactWrite, others: TransactWrite[] = []): Promise<void> {
  await (others.length ? transact([put, ...others]) : writeAlone(put));
}

/** Moves a uniqueness item (a name or label) from `oldKey` to `newItem`; the new one must be free, or `onTaken`. */
export function moveUniqueItem(oldKey: Key, newItem: Key & Record<string, unknown>, onTaken: () => Error): TransactWrite[] {
  return [{ item: { Delete: { TableName: config.tableName, Key: oldKey } } }, insertIfAbsent(newItem, onTaken)];
}

export interface VersionedUpdate<T> {
  /** What the caller read already (null: known to be absent); read here when undefined. */
  loaded?: Versioned<T> | null;
  read: () => Promise<Versioned<T> | undefined>;
  /** The changed entity; throws a 400 when the merged result is invalid. */
  merge: (current: T) => T;
  /** Writes `next` on condition of `current.version`; throws StaleWrite when the version moved. */
  write: (current: Versioned<T>, next: Versioned<T>) => Promise<void>;
  notFound: () => Error;
}

/**
 * Optimistic update: merge into what was read, write on condition that nothing changed since, and
 * after a lost race read again and merge again, so concurrent partial updates never undo each other.
 */
export async function updateVersioned<T>({ loaded, read, merge, write, notFound }: VersionedUpdate<T>): Promise<Versioned<T>> {
  return retryOnStaleWrite(async (attempt) => {
    const current = attempt === 1 && loaded !== undefined ? loaded : await read();
    if (!current) throw notFound();
    const next = { value: merge(current.value), version: current.version + 1 };
    await write(current, next);
    return next;
  });
}

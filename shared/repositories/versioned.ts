import { PutCommand, type PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Key } from '../entities/keys';
import { ConflictError } from '../errors';
import { transact, type TransactItem } from './transact';

/** An entity as stored, with the version number every update of it is conditioned on. */
export interface Versioned<T> {
  value: T;
  version: number;
}

/** The conditional write lost a race: the item is no longer at the version that was read. */
export class StaleWrite extends Error {}

/** The fields of a partial change that were actually sent. */
export const defined = <T extends object>(object: T): Partial<T> =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;

/** A lost race is read again and redone this many times before the caller is told to retry. */
const MAX_ATTEMPTS = 3;

/** A Put of the whole item that succeeds only while the stored item is still at `version`. */
export function putIfVersion(item: Record<string, unknown>, version: number) {
  return {
    TableName: config.tableName,
    Item: item,
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':version': version },
  } satisfies PutCommandInput;
}

/** A single versioned Put (no other item to keep in step). */
export async function sendPutIfVersion(put: PutCommandInput): Promise<void> {
  await dynamo.send(new PutCommand(put)).catch((error: unknown) => {
    throw (error as Error).name === 'ConditionalCheckFailedException' ? new StaleWrite() : error;
  });
}

/**
 * A versioned Put together with other items in one transaction. The Put must come first: its failed
 * condition means a lost race; any other item's failed condition becomes `onOtherFailed(index)`.
 */
export async function transactWithVersionedPut(put: PutCommandInput, others: TransactItem[], onOtherFailed: (index: number) => Error): Promise<void> {
  await transact([{ Put: put }, ...others] as TransactItem[], (index) => (index === 0 ? new StaleWrite() : onOtherFailed(index)));
}

/** Moves a uniqueness item (a name or label) from `oldKey` to `newItem`; the new one must be free. */
export function moveUniqueItem(oldKey: Key, newItem: Key & Record<string, unknown>): TransactItem[] {
  return [
    { Delete: { TableName: config.tableName, Key: oldKey } },
    { Put: { TableName: config.tableName, Item: newItem, ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
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
  let current = loaded === undefined ? await read() : loaded;
  for (let attempt = 1; ; attempt++) {
    if (!current) throw notFound();
    const next = { value: merge(current.value), version: current.version + 1 };
    try {
      await write(current, next);
      return next;
    } catch (error) {
      if (!(error instanceof StaleWrite)) throw error;
    }
    if (attempt === MAX_ATTEMPTS) throw new ConflictError('The record was changed by another request at the same time; try again');
    current = await read();
  }
}

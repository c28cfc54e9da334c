import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { changedMeanwhile } from '../errors';
import { dynamo } from '../dynamo';
import type { Key } from './keys';
import type { Condition } from './update-fields';
import { backoff, mayRetryContended } from './retry';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction, carrying what its condition failing means. */
export interface TransactWrite {
  item: TransactItem;
  /** The error to throw when this item's condition fails; without it, a failed condition is a fault of ours (500). */
  onConditionFailed?: () => Error;
}

/** A Put that only creates: the key must be free. */
export function insertIfAbsent(item: Key & Record<string, unknown>, onConditionFailed?: () => Error): TransactWrite {
  return { item: { Put: { TableName: config.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }, onConditionFailed };
}

/** A check that an item exists, so the transaction fails as a whole when it does not. */
export function requireExisting(key: Key, onConditionFailed: () => Error): TransactWrite {
  return { item: { ConditionCheck: { TableName: config.tableName, Key: key, ConditionExpression: 'attribute_exists(pk)' } }, onConditionFailed };
}

/** A Delete, conditional on the item existing when `onMissing` is given. */
export function deleteItem(key: Key, onMissing?: () => Error): TransactWrite {
  const condition = onMissing ? { ConditionExpression: 'attribute_exists(pk)' } : {};
  return { item: { Delete: { TableName: config.tableName, Key: key, ...condition } }, onConditionFailed: onMissing };
}

/** The condition that an item's `attribute` still holds `value`, as it was read (which a missing item does not). */
export const heldCondition = ([attribute, value]: readonly [string, unknown]): Condition => ({
  expression: `#${attribute} = :${attribute}`,
  names: { [`#${attribute}`]: attribute },
  values: { [`:${attribute}`]: value },
});

/** A condition as a write's expression, names and values. */
const asExpression = ({ expression, names, values }: Condition) => ({ ConditionExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values });

/** `heldCondition` as a write's expression, names and values. */
export const stillHolds = (held: readonly [string, unknown]) => asExpression(heldCondition(held));

/**
 * A Delete only while the item still holds what was read: an attribute's value (`['role', 'ADMIN']`), or a condition
 * over several (`heldAsRead`); `onConditionFailed` when it is gone or changed.
 */
export function deleteIfStill(key: Key, held: readonly [string, unknown] | Condition, onConditionFailed: () => Error): TransactWrite {
  const condition = 'expression' in held ? asExpression(held) : stillHolds(held);
  return { item: { Delete: { TableName: config.tableName, Key: key, ...condition } }, onConditionFailed };
}

/** A check, in a transaction, that an item's attribute still holds the value read; `onConditionFailed` when not. */
export function checkStill(key: Key, held: readonly [string, unknown], onConditionFailed: () => Error): TransactWrite {
  return { item: { ConditionCheck: { TableName: config.tableName, Key: key, ...stillHolds(held) } }, onConditionFailed };
}

function describe(item: TransactItem): string {
  const [operation, input] = Object.entries(item)[0] as [string, { Key?: Key; Item?: Key }];
  const key = input.Key ?? input.Item;
  return `${operation} ${key?.pk}/${key?.sk}`;
}

/**
 * DynamoDB cancels a transaction that touches an item another transaction is writing (every create
 * moves its collection's counter, so concurrent creates meet there). The SDK does not retry that;
 * nothing was written, so trying again is safe, and after MAX_RETRIES retries and CONTENDED_WRITE_BUDGET_MS the
 * caller is told to (409 CONFLICT).
 */
function isConflictOnly(error: TransactionCanceledException): boolean {
  const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  return codes.includes('TransactionConflict') && codes.every((code) => code === 'TransactionConflict' || code === 'None');
}

/** The error of the first write whose condition failed, or undefined when none did. */
function conditionError(writes: TransactWrite[], error: TransactionCanceledException): Error | undefined {
  const index = error.CancellationReasons?.findIndex((reason) => reason.Code === 'ConditionalCheckFailed') ?? -1;
  const write = writes[index];
  if (!write) return undefined;
  return write.onConditionFailed?.() ?? new Error(`Transaction condition failed unexpectedly: ${describe(write.item)}`);
}

/** Writes all items or none; a failed condition throws the error its write carries. */
export async function transact(writes: TransactWrite[]): Promise<void> {
  const items = writes.map((write) => write.item);
  const startedAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    const conflicted = await dynamo.send(new TransactWriteCommand({ TransactItems: items })).then(
      () => false,
      (error: unknown) => {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const failed = conditionError(writes, error);
        if (failed) throw failed;
        if (!isConflictOnly(error)) throw error;
        // Still meeting other transactions after every retry: the caller's to try again (409), not a fault (500).
        if (!mayRetryContended(attempt, startedAt)) throw changedMeanwhile();
        return true;
      },
    );
    if (!conflicted) return;
    await backoff(attempt);
  }
}

class ConditionNotHeld extends Error {}

/** The onConditionFailed of a write whose failed condition is nothing to do (writeAloneWhereHolds). */
export const conditionNotHeld = () => new ConditionNotHeld();

/**
 * One write on its own made only where its condition holds, and otherwise nothing to do (a mark already set, a record
 * moved on meanwhile): with `conditionNotHeld` as its onConditionFailed, false then, never an error.
 */
export async function writeAloneWhereHolds(write: TransactWrite): Promise<boolean> {
  return writeAlone(write).then(
    () => true,
    (error: unknown) => {
      if (error instanceof ConditionNotHeld) return false;
      throw error;
    },
  );
}

/** One write on its own (a single call, half a transaction's cost), with the same meaning of a failed condition. */
export async function writeAlone({ item, onConditionFailed }: TransactWrite): Promise<void> {
  const command = item.Put ? new PutCommand(item.Put) : item.Update ? new UpdateCommand(item.Update) : item.Delete ? new DeleteCommand(item.Delete) : undefined;
  if (!command) throw new Error(`writeAlone takes a Put, Update or Delete, not ${describe(item)}`);
  await dynamo.send(command as PutCommand).catch((error: unknown) => {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    throw onConditionFailed?.() ?? new Error(`Condition failed unexpectedly: ${describe(item)}`);
  });
}

/**
 * One Update or Delete on its own, answering the item as it was before it (ReturnValues ALL_OLD), or undefined where
 * its condition did not hold (with `conditionNotHeld` as its onConditionFailed): of two at once that delete an item on
 * condition it exists, one is answered the item.
 */
export async function writeAloneAnsweringOld({ item, onConditionFailed }: TransactWrite): Promise<Record<string, unknown> | undefined> {
  const command = item.Update ? new UpdateCommand({ ...item.Update, ReturnValues: 'ALL_OLD' }) : item.Delete ? new DeleteCommand({ ...item.Delete, ReturnValues: 'ALL_OLD' }) : undefined;
  if (!command) throw new Error(`writeAloneAnsweringOld takes an Update or Delete, not ${describe(item)}`);
  try {
    return (await dynamo.send(command as UpdateCommand)).Attributes;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const failed = onConditionFailed?.() ?? new Error(`Condition failed unexpectedly: ${describe(item)}`);
    if (failed instanceof ConditionNotHeld) return undefined;
    throw failed;
  }
}

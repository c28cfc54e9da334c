import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../dynamo';
import { backoff, MAX_RETRIES } from './retry';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * DynamoDB cancels a transaction that touches an item another transaction is writing (every create
 * moves its collection's counter, so concurrent creates meet there). The SDK does not retry that;
 * nothing was written, so trying again is safe.
 */
function isConflictOnly(error: TransactionCanceledException): boolean {
  const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  return codes.includes('TransactionConflict') && codes.every((code) => code === 'TransactionConflict' || code === 'None');
}

/**
 * Writes all items or none. When a condition fails, `onConditionFailed` receives the index of
 * the first item whose condition failed and returns the domain error to throw.
 */
export async function transact(items: TransactItem[], onConditionFailed: (index: number) => Error): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const conflicted = await dynamo.send(new TransactWriteCommand({ TransactItems: items })).then(
      () => false,
      (error: unknown) => {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const index = error.CancellationReasons?.findIndex((reason) => reason.Code === 'ConditionalCheckFailed') ?? -1;
        if (index >= 0) throw onConditionFailed(index);
        if (!isConflictOnly(error) || attempt > MAX_RETRIES) throw error;
        return true;
      },
    );
    if (!conflicted) return;
    await backoff(attempt);
  }
}

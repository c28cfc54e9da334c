import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../dynamo';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Writes all items or none. When a condition fails, `onConditionFailed` receives the index of
 * the first item whose condition failed and returns the domain error to throw.
 */
export async function transact(items: TransactItem[], onConditionFailed: (index: number) => Error): Promise<void> {
  await dynamo.send(new TransactWriteCommand({ TransactItems: items })).catch((error: unknown) => {
    if (error instanceof TransactionCanceledException) {
      const index = error.CancellationReasons?.findIndex((reason) => reason.Code === 'ConditionalCheckFailed') ?? -1;
      if (index >= 0) throw onConditionFailed(index);
    }
    throw error;
  });
}

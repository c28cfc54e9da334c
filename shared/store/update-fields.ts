import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { defined } from './changes';
import type { Key } from './keys';
import type { TransactWrite } from './transact';

export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/**
 * An Update that sets the sent fields (undefined ones are left alone) and removes `remove`, on
 * condition that the item exists and, when given, that `condition` holds.
 */
export function setFields(key: Key, changes: object, { remove = [], condition, onConditionFailed }: { remove?: string[]; condition?: Condition; onConditionFailed: () => Error }): TransactWrite {
  const fields = Object.entries(defined(changes));
  const clauses = [
    fields.length ? `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}` : '',
    remove.length ? `REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : '',
  ];
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: key,
        UpdateExpression: clauses.filter(Boolean).join(' '),
        ConditionExpression: ['attribute_exists(pk)', ...(condition ? [`(${condition.expression})`] : [])].join(' AND '),
        ExpressionAttributeNames: {
          ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          ...Object.fromEntries(remove.map((name, i) => [`#r${i}`, name])),
          ...condition?.names,
        },
        ...(fields.length || condition?.values
          ? { ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])), ...condition?.values } }
          : {}),
      },
    },
    onConditionFailed,
  };
}

/**
 * One UpdateItem that sets the sent fields of an existing item and answers the item as it now is:
 * for records with no rule across fields, so nothing needs reading first. A missing item → `onMissing`.
 */
export async function updateExistingItem(key: Key, changes: object, onMissing: () => Error): Promise<Record<string, unknown>> {
  const { item } = setFields(key, changes, { onConditionFailed: onMissing });
  const { Attributes } = await dynamo.send(new UpdateCommand({ ...item.Update!, ReturnValues: 'ALL_NEW' })).catch((error: unknown) => {
    throw (error as Error).name === 'ConditionalCheckFailedException' ? onMissing() : error;
  });
  return Attributes ?? {};
}

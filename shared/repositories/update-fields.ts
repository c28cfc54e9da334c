import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { defined } from '../entities/changes';
import type { Key } from '../entities/keys';

/**
 * One UpdateItem that sets the sent fields of an existing item and answers the item as it now is:
 * for records with no rule across fields, so nothing needs reading first. A missing item → `onMissing`.
 */
export async function updateExistingItem(key: Key, changes: object, onMissing: () => Error): Promise<Record<string, unknown>> {
  const fields = Object.entries(defined(changes));
  const { Attributes } = await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: key,
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((error: unknown) => {
      throw (error as Error).name === 'ConditionalCheckFailedException' ? onMissing() : error;
    });
  return Attributes ?? {};
}

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from '../entities/keys';

/** A TransactWriteItems Update that moves a counter by `by`. */
export function counterUpdate(organizationId: string, name: string, by: number) {
  return {
    Update: {
      TableName: config.tableName,
      Key: keys.counter(organizationId, name),
      UpdateExpression: 'ADD #count :by',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':by': by },
    },
  };
}

export async function readCounter(organizationId: string, name: string): Promise<number | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: config.tableName, Key: keys.counter(organizationId, name), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : Number(Item.count);
}

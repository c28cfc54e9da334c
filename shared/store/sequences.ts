import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from './keys';

/**
 * Reserves `count` integer ids of one kind for an organization and returns the first.
 * Ids are never reused: a create that fails after reserving leaves a gap, as database sequences do.
 */
export async function reserveIds(organizationId: string, kind: string, count = 1): Promise<number> {
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: keys.sequence(organizationId, kind),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value) - count + 1;
}

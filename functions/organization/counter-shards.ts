import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { ConflictError } from '#shared/errors';
import { organizationKeys } from './entity';

/*
 * The organization's counterShards setting, apart from ./store.ts: the API key authorizer reads it on every key it
 * checks, and importing the store put every schema the organization's records hold into the authorizer's cold start.
 */

/**
 * Over how many items the organization's lead and inquiry counters are spread (the admin CLI's `org shards`); 1 unless
 * raised. Undefined when the organization has no record: a key of an organization that is gone opens nothing.
 */
export async function getOrganizationCounterShards(organizationId: string): Promise<number | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ProjectionExpression: 'pk, counterShards' }));
  if (!Item) return undefined;
  return typeof Item.counterShards === 'number' ? Item.counterShards : 1;
}

/**
 * Spreads the organization's hot counters over `shards` items. It only grows: a counter's total is the sum of
 * the shards read, so dropping one would drop what was counted there.
 */
export async function raiseOrganizationCounterShards(organizationId: string, shards: number): Promise<void> {
  await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: organizationKeys.organization(organizationId),
        UpdateExpression: 'SET counterShards = :shards',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(counterShards) OR counterShards <= :shards)',
        ExpressionAttributeValues: { ':shards': shards },
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name === 'ConditionalCheckFailedException') throw new ConflictError('Counter shards only grow: the organization is missing or already has more');
      throw error;
    });
}

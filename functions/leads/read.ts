import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { NotFoundError } from '#shared/errors';
import { fromLeadItem, leadKeys } from './entity';
import type { Lead } from './schema';

export const leadNotFound = () => new NotFoundError('Lead not found');

/** The lead as stored, read consistently: a claim, a write or a search reads the lead it just found. */
export async function getLead(organizationId: string, leadId: string): Promise<Lead | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, leadId), ConsistentRead: true }));
  return Item && fromLeadItem(Item);
}

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from '../entities/keys';
import { newId, now } from '../ids';
import { insertIfAbsent, writeAlone } from './transact';

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

export async function createOrganization(name: string): Promise<Organization> {
  const organization = { id: newId('org'), name, createdAt: now() };
  await writeAlone(insertIfAbsent({ ...keys.organization(organization.id), entity: 'ORGANIZATION', ...organization }));
  return organization;
}

export async function organizationExists(organizationId: string): Promise<boolean> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.organization(organizationId), ProjectionExpression: 'pk' }));
  return Item !== undefined;
}

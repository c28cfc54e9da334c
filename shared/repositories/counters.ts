import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from '../entities/keys';

/** Counters kept in step with their collection inside the same transaction; lists read them for totalCount. */
export const counterNames = {
  leads: 'LEADS',
  activities: (leadId: string) => `ACTIVITIES#${leadId}`,
  members: 'MEMBERS',
  /** Exists exactly while the company does. */
  companyNotes: (companyId: string) => `NOTES#${companyId}`,
  policies: 'POLICIES',
  /** One counter per inquiry list filter combination, so every filtered totalCount is one read. */
  inquiries: ({ leadId, source }: { leadId?: string; source?: string } = {}) =>
    ['INQUIRIES', ...(leadId ? [`LEAD#${leadId}`] : []), ...(source ? [`SOURCE#${source}`] : [])].join('#'),
} as const;

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

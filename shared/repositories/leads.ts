import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { fromActivityItem, fromLeadItem, toActivityItem, toLeadItem } from '../entities/lead';
import { keys } from '../entities/keys';
import { NotFoundError } from '../errors';
import { newId, now } from '../ids';
import type { Page } from '../pagination';
import type { CreateLeadBody, Lead, LeadActivity } from '../schemas/leads';
import { counterNames, counterUpdate, readCounter } from './counters';
import { queryPage } from './query-page';
import { reserveIds } from './sequences';
import { transact } from './transact';

export const ACTIVITY_SEQUENCE = 'ACTIVITY';

/** "Jane van der Berg" → Jane / "van der Berg"; explicit firstName/lastName win. */
export function leadFromRequest(body: CreateLeadBody, id: string, createdAt: string): Lead {
  const [first, ...rest] = (body.name ?? '').split(/\s+/).filter(Boolean);
  return {
    id,
    firstName: body.firstName ?? first ?? null,
    lastName: body.lastName ?? (rest.length ? rest.join(' ') : null),
    email: body.email,
    phone: body.phone ?? null,
    suburb: body.suburb ?? null,
    businessName: body.businessName ?? null,
    socials: body.socials ?? {},
    status: 'NEW',
    createdAt,
    read: false,
    lastInquiryId: null,
    lastInquiryDate: null,
    unreadEmails: 0,
    unreadCalls: 0,
    unreadChatbotThreads: 0,
    unreadSMS: 0,
    unreadWebformSubmissions: 0,
    hasFlaggedInquiry: false,
  };
}

/** The lead, its LEAD_CREATED activity and both counters, in one transaction. */
export async function createLeadWithActivity(organizationId: string, lead: Lead, userId: string | null = null): Promise<Lead> {
  const activityId = await reserveIds(organizationId, ACTIVITY_SEQUENCE);
  const activity: LeadActivity = {
    id: activityId,
    event: 'LEAD_CREATED',
    data: `Lead ${[lead.firstName, lead.lastName].filter(Boolean).join(' ')} created`,
    referenceId: null,
    userId,
    leadId: lead.id,
    createdAt: lead.createdAt,
  };
  await transact(
    [
      { Put: { TableName: config.tableName, Item: toLeadItem(organizationId, lead), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: config.tableName, Item: toActivityItem(organizationId, activity), ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(organizationId, counterNames.leads, 1),
      counterUpdate(organizationId, counterNames.activities(lead.id), 1),
    ],
    () => new Error(`Lead id ${lead.id} collided`),
  );
  return lead;
}

export async function createLead(organizationId: string, body: CreateLeadBody): Promise<Lead> {
  const createdAt = new Date();
  return createLeadWithActivity(organizationId, leadFromRequest(body, newId('lead', createdAt), createdAt.toISOString()));
}

export async function listLeadsPage(organizationId: string, page: number, limit: number): Promise<Page<Lead>> {
  const [items, totalCount] = await Promise.all([
    queryPage(keys.leads(organizationId), page, limit),
    readCounter(organizationId, counterNames.leads),
  ]);
  return { items: items.map(fromLeadItem), totalCount: totalCount ?? 0, page, limit };
}

/**
 * The activity counter exists exactly while its lead does (both are written and removed in the
 * same transactions), so reading it answers "does this lead exist here?" without a third call.
 */
export async function listActivitiesPage(organizationId: string, leadId: string, page: number, limit: number): Promise<Page<LeadActivity>> {
  const [items, totalCount] = await Promise.all([
    queryPage(keys.activities(organizationId, leadId), page, limit),
    readCounter(organizationId, counterNames.activities(leadId)),
  ]);
  if (totalCount === undefined) throw new NotFoundError('Lead not found');
  return { items: items.map(fromActivityItem), totalCount, page, limit };
}

/** Removes the lead and its counters atomically, then its activity records. */
export async function deleteLead(organizationId: string, leadId: string): Promise<void> {
  await transact(
    [
      { Delete: { TableName: config.tableName, Key: keys.lead(organizationId, leadId), ConditionExpression: 'attribute_exists(pk)' } },
      counterUpdate(organizationId, counterNames.leads, -1),
      { Delete: { TableName: config.tableName, Key: keys.counter(organizationId, counterNames.activities(leadId)) } },
    ],
    () => new NotFoundError('Lead not found'),
  );
  await deleteActivities(organizationId, leadId);
}

async function deleteActivities(organizationId: string, leadId: string): Promise<void> {
  const { pk, skPrefix } = keys.activities(organizationId, leadId);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: startKey,
        Limit: 25,
      }),
    );
    const items = page.Items ?? [];
    if (items.length) {
      await dynamo.send(
        new BatchWriteCommand({
          RequestItems: { [config.tableName]: items.map((Key) => ({ DeleteRequest: { Key: { pk: Key.pk, sk: Key.sk } } })) },
        }),
      );
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

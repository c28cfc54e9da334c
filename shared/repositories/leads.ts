import { config } from '../config';
import { fromActivityItem, fromLeadItem, toActivityItem, toLeadItem } from '../entities/lead';
import { counterNames, keys, type Key } from '../entities/keys';
import { NotFoundError } from '../errors';
import { newId, now } from '../ids';
import type { Page } from '../pagination';
import type { CreateLeadBody, Lead, LeadActivity } from '../schemas/leads';
import { counterUpdate } from './counters';
import { deleteItems } from './batch-write';
import { countedPage, queryAll } from './query-page';
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
  const { items, totalCount } = await countedPage(keys.leads(organizationId), organizationId, counterNames.leads, page, limit);
  return { items: items.map(fromLeadItem), totalCount: totalCount ?? 0, page, limit };
}

/**
 * The activity counter exists exactly while its lead does (both are written and removed in the
 * same transactions), so reading it answers "does this lead exist here?" without a third call.
 */
export async function listActivitiesPage(organizationId: string, leadId: string, page: number, limit: number): Promise<Page<LeadActivity>> {
  const { items, totalCount } = await countedPage(keys.activities(organizationId, leadId), organizationId, counterNames.activities(leadId), page, limit);
  if (totalCount === undefined) throw new NotFoundError('Lead not found');
  return { items: items.map(fromActivityItem), totalCount, page, limit };
}

/**
 * Removes the lead and its counters atomically, then its activity records. A retried delete whose
 * first attempt stopped after the transaction answers 404 and still finishes removing them.
 */
export async function deleteLeadWithActivities(organizationId: string, leadId: string): Promise<void> {
  const notFound = await transact(
    [
      { Delete: { TableName: config.tableName, Key: keys.lead(organizationId, leadId), ConditionExpression: 'attribute_exists(pk)' } },
      counterUpdate(organizationId, counterNames.leads, -1),
      { Delete: { TableName: config.tableName, Key: keys.counter(organizationId, counterNames.activities(leadId)) } },
    ],
    () => new NotFoundError('Lead not found'),
  ).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof NotFoundError) return error;
      throw error;
    },
  );
  await deleteItems((await queryAll(keys.activities(organizationId, leadId), ['pk', 'sk'])) as unknown as Key[]);
  if (notFound) throw notFound;
}

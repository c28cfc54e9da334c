import { fromActivityItem, fromLeadItem, toActivityItem, toLeadItem } from '../entities/lead';
import { counterNames, keys, type Key } from '../entities/keys';
import { NotFoundError } from '../errors';
import type { Page } from '../pagination';
import type { Lead, LeadActivity } from '../schemas/leads';
import { deleteItems } from './batch-write';
import { counterUpdate } from './counters';
import { countedPage, queryAll } from './query-page';
import { deleteItem, insertIfAbsent, transact } from './transact';

export const ACTIVITY_SEQUENCE = 'ACTIVITY';

const leadNotFound = () => new NotFoundError('Lead not found');

/** The lead, its first activity and both counters, in one transaction. */
export async function insertLeadWithActivity(organizationId: string, lead: Lead, activity: LeadActivity): Promise<void> {
  await transact([
    insertIfAbsent(toLeadItem(organizationId, lead)),
    insertIfAbsent(toActivityItem(organizationId, activity)),
    counterUpdate(organizationId, counterNames.leads, 1),
    counterUpdate(organizationId, counterNames.activities(lead.id), 1),
  ]);
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
  if (totalCount === undefined) throw leadNotFound();
  return { items: items.map(fromActivityItem), totalCount, page, limit };
}

/**
 * Removes the lead and its counters atomically, then its activity records. A retried delete whose
 * first attempt stopped after the transaction answers 404 and still finishes removing them.
 */
export async function deleteLeadWithActivities(organizationId: string, leadId: string): Promise<void> {
  const notFound = await transact([
    deleteItem(keys.lead(organizationId, leadId), leadNotFound),
    counterUpdate(organizationId, counterNames.leads, -1),
    deleteItem(keys.counter(organizationId, counterNames.activities(leadId))),
  ]).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof NotFoundError) return error;
      throw error;
    },
  );
  await deleteItems((await queryAll(keys.activities(organizationId, leadId), ['pk', 'sk'])) as unknown as Key[]);
  if (notFound) throw notFound;
}

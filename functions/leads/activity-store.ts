import type { Page, PageRequest } from '#shared/pagination';
import { listOrChanges } from '#shared/store/change-log';
import { counterUpdate } from '#shared/store/counters';
import { countedPage } from '#shared/store/query-page';
import { blockSequence } from '#shared/store/sequences';
import { insertIfAbsent, transact, type TransactWrite } from '#shared/store/transact';
import { fromActivityItem, leadCounterNames, leadKeys, toActivityItem } from './entity';
import { leadNotFound } from './read';
import type { LeadActivity } from './schema';

/**
 * Activity ids: every lead create, status change, note, inquiry and booking takes one, so each container takes them
 * from blocks of 50 (one UpdateItem per 50) rather than writing the organization's sequence item every time. The
 * timeline is sorted by time, not by id (`leadKeys.activity`).
 */
export const ACTIVITY_SEQUENCE = blockSequence('ACTIVITY', 50);

/**
 * The activity counter exists exactly while its lead does (both are written and removed in the
 * same transactions), so reading it answers "does this lead exist here?" without a third call.
 */
export async function listActivitiesPage(organizationId: string, leadId: string, request: PageRequest): Promise<Page<LeadActivity>> {
  const { page, limit } = request;
  const counter = leadCounterNames.activities(leadId);
  const log = { partition: (updatedSince: string, until: string) => leadKeys.activitiesSince(organizationId, leadId, updatedSince, until), ownerCounter: { organizationId, name: counter } };
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => countedPage(leadKeys.activities(organizationId, leadId), organizationId, counter, at));
  if (totalCount === undefined) throw leadNotFound();
  return { items: items.map(fromActivityItem), totalCount, page, limit, nextCursor };
}

/**
 * An activity added to an existing lead's timeline, counted: the activity counter exists exactly while the lead
 * does, so its move on condition that it exists is the lead's check (404 when it is gone), in the same transaction.
 */
export async function insertActivity(organizationId: string, activity: LeadActivity, also: readonly TransactWrite[] = []): Promise<void> {
  await transact([insertIfAbsent(toActivityItem(organizationId, activity)), counterUpdate(organizationId, leadCounterNames.activities(activity.leadId), 1, leadNotFound), ...also]);
}

import { batchGetItems } from '#shared/store/batch-get';
import { filterCountedPage, listOrChanges } from '#shared/store/change-log';
import { ValidationError } from '#shared/errors';
import { keys } from '#shared/store/keys';
import { pageOfFiltered, pageOfMatches } from '#shared/store/match-page';
import { queryAll, rangePage, type PageSource } from '#shared/store/query-page';
import type { Page, PageRequest } from '#shared/pagination';
import { holderOf } from './claims';
import { fromLeadItem, LEAD_CHANGES, type LeadContact, leadCounterNames, leadKeys } from './entity';
import type { LeadFilters } from './moves';
import type { Lead, ListLeadsQuery } from './schema';

/**
 * Each filter has its own index partition, newest first. Two or more together read the narrowest one's partition
 * filtered (`pageOfFiltered`): a company's (tens of leads), else the assignee's (a member's share of them); a list
 * index per combination would cost every lead's writes more copies.
 */
function listSource(organizationId: string, { status, companyId, assignedMemberId }: Partial<LeadFilters>): PageSource {
  if (!status && !companyId && assignedMemberId === undefined) return leadKeys.leads(organizationId);
  const index = leadKeys.leadIndexes(organizationId, { id: '', status: status ?? '', companyId: companyId ?? null, assignedMemberId: assignedMemberId ?? null });
  if (companyId) return { index: 'gsi3', pk: index.gsi3pk! };
  if (assignedMemberId !== undefined) return { index: 'gsi5', pk: index.gsi5pk! };
  return { index: 'gsi2', pk: index.gsi2pk };
}

/** The filters whose partition is read whole when combined, narrowest first. */
const COMBINED_WITHIN = ['companyId', 'assignedMemberId'] as const;

/** The list's parameters a range of `statusChangedAt` takes no other filter with. */
const NOT_WITH_STATUS_CHANGED = ['companyId', 'assignedMemberId', 'q', 'email', 'phone'] as const;

/**
 * A status's leads that took it within a range of times, the latest first: the Query of the range of that status's
 * partition sorted by `statusChangedAt` (gsi4), and a COUNT Query of it. Needs `status`; takes no other filter.
 */
async function leadsByStatusSincePage(organizationId: string, query: ListLeadsQuery): Promise<Page<Lead>> {
  const { status, statusChangedSince, statusChangedBefore, ...request } = query;
  const range = statusChangedSince !== undefined ? 'statusChangedSince' : 'statusChangedBefore';
  if (!status) throw new ValidationError([{ path: range, message: `${range} needs status: a range of statusChangedAt lists the leads of one status` }]);
  const other = NOT_WITH_STATUS_CHANGED.find((name) => query[name] !== undefined);
  if (other) throw new ValidationError([{ path: other, message: `${other} cannot be combined with ${range}` }]);
  const source = leadKeys.leadsByStatusSince(organizationId, status, { from: statusChangedSince, before: statusChangedBefore });
  const log = { partition: keys.changeLog(organizationId, LEAD_CHANGES).gsi6pk, filters: { status, statusChangedSince, statusChangedBefore } };
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => rangePage(source, at));
  return { items: items.map(fromLeadItem), totalCount: totalCount ?? 0, page: request.page, limit: request.limit, nextCursor };
}

/** One Query and one counter read, whatever the filters; a range of statusChangedAt, the Query of it and a COUNT Query. */
export async function listLeadsPage(organizationId: string, query: ListLeadsQuery): Promise<Page<Lead>> {
  if (query.statusChangedSince !== undefined || query.statusChangedBefore !== undefined) return leadsByStatusSincePage(organizationId, query);
  const { status, companyId, assignedMemberId, statusChangedSince: _since, statusChangedBefore: _before, ...request } = query;
  const partition = (filters: Partial<LeadFilters>) => listSource(organizationId, filters);
  const leads = { organizationId, changes: LEAD_CHANGES, filters: { status, companyId, assignedMemberId }, within: COMBINED_WITHIN, source: partition, counter: leadCounterNames.leads };
  return filterCountedPage(request, leads, fromLeadItem);
}

/** The list filters a search takes as well, applied to the matches before they are counted and paged. */
const passes =
  ({ status, companyId, assignedMemberId }: Partial<LeadFilters>) =>
  (match: { status?: unknown; companyId?: unknown; assignedMemberId?: unknown }) =>
    (!status || match.status === status) && (!companyId || match.companyId === companyId) && (assignedMemberId === undefined || match.assignedMemberId === assignedMemberId);

/** A search's cursor belongs to its key range and its filters. */
const searchList = (source: PageSource, { status, companyId, assignedMemberId }: Partial<LeadFilters>): PageSource => ({
  ...source,
  skPrefix: `${source.skPrefix ?? ''}?status=${status ?? ''}&companyId=${companyId ?? ''}&assignedMemberId=${assignedMemberId ?? ''}`,
});

/**
 * The lead with this email (lower-cased) or phone (E.164), as a page: contacts are unique, so its claim names the one
 * lead that can have it (two consistent GetItems: the claim, then its lead), filtered and paged here.
 */
export async function leadsWithContactPage(organizationId: string, contact: LeadContact, filters: Partial<LeadFilters>, request: PageRequest): Promise<Page<Lead>> {
  const holder = await holderOf(organizationId, contact);
  const leads = holder ? [holder].filter(passes(filters)) : [];
  const claim = leadKeys.leadContact(organizationId, contact.kind, contact.value);
  const { items, totalCount, nextCursor } = await pageOfMatches(leads, (lead) => lead.id, searchList({ pk: claim.pk, skPrefix: claim.sk }, filters), request);
  return { items, totalCount, page: request.page, limit: request.limit, nextCursor };
}

/**
 * The leads with a name (first, last, or both together) starting with `prefix`, ignoring case and accents: one
 * consistent Query of the name items' key range (small items: the lead id, status, company and assignee), each lead once,
 * filtered, counted and paged here, then one BatchGetItem of the page's leads.
 */
export async function leadsByNamePage(organizationId: string, prefix: string, filters: Partial<LeadFilters>, request: PageRequest): Promise<Page<Lead>> {
  const source: PageSource = { ...leadKeys.leadNames(organizationId, prefix), consistentRead: true };
  const names = (await queryAll(source, ['leadId', 'status', 'companyId', 'assignedMemberId'])).filter(passes(filters));
  const { items, totalCount, nextCursor } = await pageOfMatches(names, (name) => String(name.leadId), searchList(source, filters), request);
  const found = items.length ? await batchGetItems(items.map((name) => leadKeys.lead(organizationId, String(name.leadId))), { consistentRead: true }) : [];
  const byId = new Map(found.map((item) => [String(item.id), fromLeadItem(item)]));
  return { items: items.flatMap((name) => byId.get(String(name.leadId)) ?? []), totalCount, page: request.page, limit: request.limit, nextCursor };
}

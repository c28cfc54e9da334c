import * as v from 'valibot';
import { inquiryCounterNames, inquiryKeys, fromInquiryItem, INQUIRY_CHANGES, type InquiryRecord } from './entity';
import { leadKeys } from '../leads/entity';
import { readLeadSummaries } from '../leads/read-summaries';
import { ValidationError } from '#shared/errors';
import type { Page } from '#shared/pagination';
import { filterSignature } from '#shared/filters';
import { batchGetItems } from '#shared/store/batch-get';
import { listOrChanges } from '#shared/store/change-log';
import { keys } from '#shared/store/keys';
import { pageOfFiltered } from '#shared/store/match-page';
import { countedPage, rangePage, type PageSource } from '#shared/store/query-page';
import { idsSince, lastIdAt } from '#shared/store/retention';
import { type CallOutcome, type InquiryListItem, type InquirySource, type ListInquiriesQuery } from './schema';
import { toListItem } from './store';
import { startedByFilter } from './started-by';

/** The list's filters but its window of creation: each combination of them has its index partition, or a lead's, filtered. */
export interface InquiryFilter {
  leadId?: string;
  source?: InquirySource;
  isRead?: boolean;
  callOutcome?: CallOutcome;
}

/**
 * Where a list of inquiries is read, newest first. A lead's inquiries are its partition (a lead has tens of them),
 * filtered by whatever else is asked. Otherwise the read state and the source choose the partition: all, by source,
 * by read state, or by both; a call outcome is a filter within the calls' partition (read or unread).
 */
function listSource(organizationId: string, { leadId, source, isRead, callOutcome }: InquiryFilter): { source: PageSource; keep?: (item: Record<string, unknown>) => boolean; counter?: string } {
  const inquiry = { id: '', leadId: leadId ?? '', source: source ?? '' };
  if (leadId) {
    const index = inquiryKeys.inquiryIndexes(organizationId, inquiry);
    const lead: PageSource = { index: 'gsi3', pk: index.gsi3pk };
    const kept = { source, isRead, callOutcome };
    const keep = Object.values(kept).some((value) => value !== undefined) ? (item: Record<string, unknown>) => Object.entries(kept).every(([name, value]) => value === undefined || item[name] === value) : undefined;
    return { source: lead, keep, counter: keep ? undefined : inquiryCounterNames.inquiries({ leadId }) };
  }
  const where = callOutcome ? { attribute: 'callOutcome', equals: callOutcome } : undefined;
  const counter = inquiryCounterNames.inquiries(callOutcome ? { callOutcome, isRead } : { source, isRead });
  if (isRead !== undefined) {
    const index = inquiryKeys.inquiryReadStateIndexes(organizationId, { ...inquiry, isRead });
    return { source: source ? { index: 'gsi5', pk: index.gsi5pk, where } : { index: 'gsi4', pk: index.gsi4pk }, counter };
  }
  const index = inquiryKeys.inquiryIndexes(organizationId, inquiry);
  return { source: source ? { index: 'gsi2', pk: index.gsi2pk, where } : { index: 'gsi1', pk: index.gsi1pk }, counter };
}

/**
 * The ids of the inquiries created at or after `createdSince` and before `createdBefore` (either may be absent): every
 * list partition is sorted by the inquiry id, a ULID of its createdAt, so they are a key range of it.
 */
function createdRange(createdSince: string | undefined, createdBefore: string | undefined): [string, string] | undefined {
  if (createdSince === undefined && createdBefore === undefined) return undefined;
  const [from, to] = idsSince('inquiry', createdSince ?? '1970-01-01T00:00:00.000Z');
  return [from, createdBefore === undefined ? to : lastIdAt('inquiry', Date.parse(createdBefore) - 1)];
}

/**
 * One Query and one counter read. With createdSince or createdBefore, the Query of that key range and a COUNT Query
 * of it (with startedBy, both filtered by who started them); a lead's inquiries filtered further, one Query of the lead's partition (+ one BatchGetItem of the page's
 * leads with expand=lead|both).
 */
export async function listInquiriesPage(organizationId: string, { leadId, source, isRead, callOutcome, expand, createdSince, createdBefore, startedBy, ...request }: ListInquiriesQuery): Promise<Page<InquiryListItem>> {
  if (callOutcome && source && source !== 'CALL') throw new ValidationError([{ path: 'callOutcome', message: 'callOutcome filters calls: leave source out, or set it to CALL' }]);
  const filters = { leadId, source: callOutcome ? 'CALL' : source, isRead, callOutcome } as const;
  const between = createdRange(createdSince, createdBefore);
  const log = { partition: keys.changeLog(organizationId, INQUIRY_CHANGES).gsi6pk, filters: { leadId, source, isRead, callOutcome, createdSince, createdBefore, startedBy } };
  const listed = listSource(organizationId, filters);
  // Who started them, filtered within the window of creation (the schema asks for one, and for no other filter).
  const ranged: PageSource = between ? { ...listed.source, skBetween: between, ...(startedBy && { where: startedByFilter(startedBy) }) } : listed.source;
  const found = await listOrChanges(request, log, (at) => {
    if (listed.keep) return pageOfFiltered(ranged, listed.keep, filterSignature({ source: filters.source, isRead, callOutcome }), at);
    if (between || !listed.counter) return rangePage(ranged, at);
    return countedPage(ranged, organizationId, listed.counter, at);
  });
  const inquiries = found.items.map(fromInquiryItem);
  const leads = expand === 'lead' || expand === 'both' ? await readLeadSummaries(organizationId, inquiries.map((inquiry) => inquiry.leadId)) : undefined;
  return { items: inquiries.map((inquiry) => toListItem(inquiry, expand, leads)), totalCount: found.totalCount ?? 0, page: request.page, limit: request.limit, nextCursor: found.nextCursor };
}


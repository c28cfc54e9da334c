import { encodeTime, MAX_ULID, MIN_ULID } from 'ulid';
import * as v from 'valibot';
import { auditKeys, toAuditEntryItem } from '#shared/audit/entry';
import type { Page } from '#shared/pagination';
import { putItems } from '#shared/store/batch-write';
import { resumablePage, settledLogSource } from '#shared/store/change-log';
import { rangePage, type PageSource } from '#shared/store/query-page';
import { retentionWindow } from '#shared/store/retention';
import { AUDIT_RETENTION_DAYS, AuditEntry, type AuditLogQuery } from './schema';

const fromAuditEntryItem = (item: Record<string, unknown>): AuditEntry => v.parse(AuditEntry, item);

/** An entry to record, with the organization whose partition it goes in. */
export interface OrganizationEntry {
  organizationId: string;
  entry: AuditEntry;
}

/** Writes entries; the same entry again (a redelivered stream batch) overwrites it with itself. */
export async function recordAuditEntries(entries: OrganizationEntry[]): Promise<void> {
  await putItems(entries.map(({ organizationId, entry }) => toAuditEntryItem(organizationId, entry)));
}

/** The ids of entries made at `at` (ISO) and after, or before it; ids begin at the epoch, so a time before it is the epoch. */
const firstIdAt = (at: string) => `audit_${encodeTime(Math.max(0, Date.parse(at)), 10)}${MIN_ULID.slice(10)}`;
const lastIdBefore = (at: string) => (Date.parse(at) <= 0 ? 'audit_' : `audit_${encodeTime(Date.parse(at) - 1, 10)}${MAX_ULID.slice(10)}`);

/** The partition of the filter asked (each has its own), between two entry ids. */
function sourceOf(organizationId: string, { keyId, resourceType, resourceId }: AuditLogQuery, [from, to]: [string, string]): PageSource {
  if (keyId) return { ...auditKeys.entriesOfKeyBetween(organizationId, keyId, from, to), index: 'gsi1' };
  if (resourceType && resourceId) return { ...auditKeys.entriesOfResourceBetween(organizationId, resourceType, resourceId, from, to), index: 'gsi3' };
  if (resourceType) return { ...auditKeys.entriesOfTypeBetween(organizationId, resourceType, from, to), index: 'gsi2' };
  return auditKeys.entriesBetween(organizationId, from, to);
}

/**
 * A page of the organization's entries, newest first, of the last AUDIT_RETENTION_DAYS days within `from` and `to`,
 * with the window's exact count (a COUNT Query sent with the page's: TTL deletes entries unseen by any counter).
 * With `updatedSince`, the entries made since, oldest first, resumable as every sync.
 */
export async function listAuditEntriesPage(organizationId: string, query: AuditLogQuery): Promise<Page<AuditEntry>> {
  const { page, limit, cursor, updatedSince, from, to } = query;
  if (updatedSince !== undefined) {
    const found = await resumablePage(settledLogSource('audit', updatedSince, (from, to) => sourceOf(organizationId, query, [from, to])), { page, limit, cursor });
    return { items: found.items.map(fromAuditEntryItem), totalCount: found.totalCount, page, limit, nextCursor: found.nextCursor };
  }
  const [kept, last] = retentionWindow('audit', AUDIT_RETENTION_DAYS);
  // A `from` inside the retention window holds still; otherwise the window's start moves with the clock.
  const start = from !== undefined && firstIdAt(from) > kept ? firstIdAt(from) : kept;
  const end = to === undefined ? last : lastIdBefore(to);
  if (end < start) return { items: [], totalCount: 0, page, limit, nextCursor: null };
  const found = await rangePage({ ...sourceOf(organizationId, query, [start, end]), movingStart: start === kept }, { page, limit, cursor });
  return { items: found.items.map(fromAuditEntryItem), totalCount: found.totalCount, page, limit, nextCursor: found.nextCursor };
}

import { auditEntryOf } from '../../shared/audit/entry';
import { sameWrite, stampOf } from '../../shared/audit/writer';
import { streamRecordId } from '../../shared/ids';
import type { AuditedRecord, ItemChange } from '../../shared/resource';
import { resourceChanges } from '../resource-changes';
import type { OrganizationEntry } from './store';

/** The records whose writes the audit log attributes, by the items' `entity` attribute. */
export const auditedRecords: ReadonlyMap<string, AuditedRecord> = new Map(resourceChanges.flatMap((changes) => (changes.audited ?? []).map((record) => [record.entity, record])));

/** `ORG#<organizationId>…`: every record's partition key starts with its organization. */
const organizationOf = (item: Record<string, unknown>) => String(item.pk).split('#')[1]!;

/**
 * The audit entry of one committed change, from the table's stream: a Put or Update of a record (a resource's
 * `audited`) by a writer, which stamped the item (shared/audit/writer.ts). A change whose stamp is the one the item
 * already had was made by no writer (a scheduled job, the stream's own work) and has no entry; a delete has none
 * here, as its transaction wrote it. The id comes from the record's sequence number, so a redelivered batch writes the
 * same entries again.
 */
export function auditEntriesOf(change: ItemChange, sequenceNumber: string): OrganizationEntry[] {
  const item = change.newItem;
  if (change.kind === 'REMOVE' || !item) return [];
  const record = auditedRecords.get(String(item.entity));
  const stamp = stampOf(item);
  const resourceId = record && item[record.idField ?? 'id'];
  if (!record || !stamp || resourceId === undefined || sameWrite(stamp, stampOf(change.oldItem))) return [];
  const { at, write: _write, ...writer } = stamp;
  const id = streamRecordId('audit', Date.parse(at), sequenceNumber);
  return [{ organizationId: organizationOf(item), entry: auditEntryOf(writer, record, resourceId as string | number, change.kind === 'INSERT' ? 'created' : 'updated', id, at) }];
}

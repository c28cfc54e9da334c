import { auditEntryOf } from '#shared/audit/entry';
import { sameWrite, stampOf } from '#shared/audit/writer';
import { streamRecordId } from '#shared/ids';
import type { ItemChange, ResourceChanges } from '#shared/resource';
import type { OrganizationEntry } from './store';

/** `ORG#<organizationId>…`: every record's partition key starts with its organization. */
const organizationOf = (item: Record<string, unknown>) => String(item.pk).split('#')[1]!;

/**
 * The audit entry of one committed change, from the table's stream: a Put or Update of a record (a resource's
 * `audited`) by a writer, which stamped the item (shared/audit/writer.ts). A change whose stamp is the one the item
 * already had was made by no writer (a scheduled job, the stream's own work) and has no entry; a delete has none
 * here, as its transaction wrote it. The id comes from the record's sequence number, so a redelivered batch writes the
 * same entries again.
 */
export function auditEntriesOf(change: ItemChange, sequenceNumber: string, changes: ResourceChanges | undefined): OrganizationEntry[] {
  const item = change.newItem;
  if (change.kind === 'REMOVE' || !item) return [];
  const record = changes?.audited?.find((candidate) => candidate.entity === item.entity);
  const stamp = stampOf(item);
  const resourceId = record && item[record.idField ?? 'id'];
  if (!record || !stamp || resourceId === undefined || sameWrite(stamp, stampOf(change.oldItem))) return [];
  const { at, write: _write, ...writer } = stamp;
  const id = streamRecordId('audit', Date.parse(at), sequenceNumber);
  return [{ organizationId: organizationOf(item), entry: auditEntryOf(writer, record, resourceId as string | number, change.kind === 'INSERT' ? 'created' : 'updated', id, at) }];
}

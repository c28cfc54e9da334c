import { config } from '../config';
import { newId } from '../ids';
import type { AuditedRecord } from '../resource';
import type { TransactWrite } from '../store/transact';
import { auditEntryOf, toAuditEntryItem } from './entry';
import { currentWriter } from './writer';

/**
 * The audit entry of a record's delete, to put in the delete's own transaction: the stream keeps only the deleted
 * item, stamped by its previous writer, so the deleter is written down where it is known, in the same round trip.
 * Nothing when no writer is running (a scheduled job, a cascade of the stream).
 */
export function auditDeletion(organizationId: string, record: Pick<AuditedRecord, 'resourceType'>, resourceId: string | number): TransactWrite[] {
  const writer = currentWriter();
  if (!writer) return [];
  const at = new Date();
  const entry = auditEntryOf(writer, record, resourceId, 'deleted', newId('audit', at), at.toISOString());
  return [{ item: { Put: { TableName: config.tableName, Item: toAuditEntryItem(organizationId, entry) } } }];
}

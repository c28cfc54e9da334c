import type { AuditedRecord } from '../resource';
import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Key, type KeySamples } from '../store/keys';
import { TTL_ATTRIBUTE } from '../table';
import type { Writer } from './writer';

/** How a write reached the table: a keyed request, one the MCP server made for its client, an inbound post or provider report, the admin CLI, an automation's run, a member's session (the owners' app). */
export const AUDIT_VIAS = ['api', 'mcp', 'inbound', 'admin', 'automation', 'session'] as const;
export type AuditVia = (typeof AUDIT_VIAS)[number];

/**
 * The header the MCP server sends on the requests it makes for its client (with the client's own API key). It is a
 * label, not a credential: it only sets `via` in the audit log, and the key is what is attributed.
 */
export const VIA_HEADER = 'x-sales-pipeline-via';

/** Audit entries are written whole by the writer itself (or the stream consumer) and carry no stamp of their own. */
export const AUDIT_ENTRY_ENTITY = 'AUDIT_ENTRY';

/** How long entries are kept (TTL) and listed. */
export const AUDIT_RETENTION_DAYS = 90;

export const AUDIT_ACTIONS = ['created', 'updated', 'deleted'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One committed write of one record, and who made it: the audit log's resource describes it to the API
 * (functions/audit-log/schema.ts), whose kinds of record are every resource's audited records.
 */
export interface AuditEntry {
  id: string;
  at: string;
  keyId: string | null;
  keyName: string | null;
  requestId: string;
  method: string | null;
  path: string | null;
  resourceType: string;
  resourceId: string;
  action: AuditAction;
  via: AuditVia;
  /** The OAuth client the write was made for, through the MCP server; null for any other write (and entries written before OAuth). */
  clientId: string | null;
  /** The member whose session made the write, or whom its API key or grant acts for; null for an organization's own key, inbound and the CLI (and entries written before sessions). */
  memberId: number | null;
}

const org = organizationPartition;
const entries = (o: string) => `${org(o)}#AUDIT`;

/**
 * An organization's audit entries, newest first by their ids (ULIDs of `at`), in a partition of their own, and
 * by key (gsi1), by kind of record (gsi2) and by record (gsi3). These keys belong to no one resource: every
 * resource's deletes write entries, as the stream consumer writes the others.
 */
export const auditKeys = {
  entry: (o: string, id: string): Key => ({ pk: entries(o), sk: `ENTRY#${id}` }),
  entriesBetween: (o: string, fromId: string, toId: string) => ({ pk: entries(o), skBetween: [`ENTRY#${fromId}`, `ENTRY#${toId}`] as [string, string] }),
  entryIndexes: (o: string, entry: Pick<AuditEntry, 'id' | 'keyId' | 'resourceType' | 'resourceId'>) => ({
    ...(entry.keyId ? { gsi1pk: `${entries(o)}#KEY#${entry.keyId}`, gsi1sk: entry.id } : {}),
    gsi2pk: `${entries(o)}#TYPE#${entry.resourceType}`,
    gsi2sk: entry.id,
    gsi3pk: `${entries(o)}#RESOURCE#${entry.resourceType}#${entry.resourceId}`,
    gsi3sk: entry.id,
  }),
  entriesOfKeyBetween: (o: string, keyId: string, fromId: string, toId: string) => ({ pk: `${entries(o)}#KEY#${keyId}`, skBetween: [fromId, toId] as [string, string] }),
  entriesOfTypeBetween: (o: string, resourceType: string, fromId: string, toId: string) => ({ pk: `${entries(o)}#TYPE#${resourceType}`, skBetween: [fromId, toId] as [string, string] }),
  entriesOfResourceBetween: (o: string, resourceType: string, resourceId: string, fromId: string, toId: string) => ({
    pk: `${entries(o)}#RESOURCE#${resourceType}#${resourceId}`,
    skBetween: [fromId, toId] as [string, string],
  }),
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const auditKeySamples: KeySamples<typeof auditKeys> = {
  entry: () => auditKeys.entry(O, 'audit_1'),
  entriesBetween: () => auditKeys.entriesBetween(O, 'audit_0', 'audit_9'),
  entryIndexes: () => auditKeys.entryIndexes(O, { id: 'audit_1', keyId: 'key_1', resourceType: 'note', resourceId: 'note_1' }),
  entriesOfKeyBetween: () => auditKeys.entriesOfKeyBetween(O, 'key_1', 'audit_0', 'audit_9'),
  entriesOfTypeBetween: () => auditKeys.entriesOfTypeBetween(O, 'note', 'audit_0', 'audit_9'),
  entriesOfResourceBetween: () => auditKeys.entriesOfResourceBetween(O, 'note', 'note_1', 'audit_0', 'audit_9'),
};

const DAY_SECONDS = 86_400;

export function toAuditEntryItem(organizationId: string, entry: AuditEntry) {
  return {
    ...auditKeys.entry(organizationId, entry.id),
    ...auditKeys.entryIndexes(organizationId, entry),
    entity: AUDIT_ENTRY_ENTITY,
    ...entry,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(entry.at) / 1000) + AUDIT_RETENTION_DAYS * DAY_SECONDS,
  };
}

/** The entry of one write of a record by `writer`. */
export const auditEntryOf = (writer: Writer, record: Pick<AuditedRecord, 'resourceType'>, resourceId: string | number, action: AuditEntry['action'], id: string, at: string): AuditEntry => ({
  id,
  at,
  keyId: writer.keyId,
  keyName: writer.keyName,
  requestId: writer.requestId,
  method: writer.method,
  path: writer.path,
  resourceType: record.resourceType,
  resourceId: String(resourceId),
  action,
  via: writer.via,
  clientId: writer.clientId ?? null,
  memberId: writer.memberId ?? null,
});

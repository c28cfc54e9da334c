import * as v from 'valibot';
import type { AuditedRecord } from '../resource';
import { Timestamp } from '../schema';
import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Key, type KeySamples } from '../store/keys';
import { TTL_ATTRIBUTE } from '../table';
import type { Writer } from './writer';

/** How a write reached the table: a keyed request, one the MCP server made for its client, an inbound post or provider report, the admin CLI. */
export const AUDIT_VIAS = ['api', 'mcp', 'inbound', 'admin'] as const;
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

/** Every kind of record the log names (each resource's `audited` records: a test keeps the two lists equal). */
export const AUDIT_RESOURCE_TYPES = ['lead', 'activity', 'inquiry', 'sms', 'appointment', 'hold', 'company', 'company_note', 'organization', 'member', 'invitation', 'api_key', 'service', 'scenario', 'product', 'transfer', 'policy', 'faq', 'webhook', 'inbound_endpoint'] as const;

const nullableString = (description: string) => v.pipe(v.nullable(v.string()), v.description(description));

/** One committed write of one record, and who made it. */
export const AuditEntry = v.object({
  id: v.pipe(v.string(), v.description('`audit_` and a ULID of `at`: entries sort by time.')),
  at: v.pipe(Timestamp, v.description('When the write was made (sent to the table, which committed it).')),
  keyId: nullableString('The API key that made the write; null for an inbound post or provider report, and for the admin CLI.'),
  keyName: nullableString('The name that key was given, if any.'),
  requestId: v.pipe(v.string(), v.description('The request that made it: its id, which the answer carried (`x-amzn-RequestId` from API Gateway, `x-request-id` from the local server); every write of one request shares it. An SMS reply or report: the provider’s message id; the admin CLI: `admin_…`, one per run.')),
  method: nullableString('The HTTP method of that request; null when no HTTP request of the API made it (the admin CLI, an SMS reply or delivery report).'),
  path: nullableString('The path of that request, without its query.'),
  resourceType: v.pipe(v.string(), v.description(`The kind of record written, as the API names it: ${AUDIT_RESOURCE_TYPES.map((type) => `\`${type}\``).join(', ')}.`)),
  resourceId: v.pipe(v.string(), v.description('The record’s id, as text (integer ids too).')),
  action: v.picklist(AUDIT_ACTIONS),
  via: v.pipe(
    v.picklist(AUDIT_VIAS),
    v.description(
      '`api`: a request with an API key; `mcp`: one the MCP server made for its client, with the client’s key (the key is what is attributed; the label is only the `x-sales-pipeline-via: mcp` header it sends); `inbound`: a post to an inbound URL, an SMS reply or an SMS delivery report; `admin`: the operator’s admin CLI.',
    ),
  ),
});
export type AuditEntry = v.InferOutput<typeof AuditEntry>;

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
  entryIndexes: () => auditKeys.entryIndexes(O, { id: 'audit_1', keyId: 'key_1', resourceType: 'lead', resourceId: 'lead_1' }),
  entriesOfKeyBetween: () => auditKeys.entriesOfKeyBetween(O, 'key_1', 'audit_0', 'audit_9'),
  entriesOfTypeBetween: () => auditKeys.entriesOfTypeBetween(O, 'lead', 'audit_0', 'audit_9'),
  entriesOfResourceBetween: () => auditKeys.entriesOfResourceBetween(O, 'lead', 'lead_1', 'audit_0', 'audit_9'),
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

export const fromAuditEntryItem = (item: Record<string, unknown>): AuditEntry => v.parse(AuditEntry, item);

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
});

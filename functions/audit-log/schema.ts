import * as v from 'valibot';
import { AUDIT_RESOURCE_TYPES, AUDIT_RETENTION_DAYS, AuditEntry } from '../../shared/audit/entry';
import { Instant, PageQuery, pageSchema, PrefixedId } from '../../shared/schema';

export { AUDIT_RETENTION_DAYS, AuditEntry };

/** A kind of record as entries name it: one the log has, as every other filter refuses what it cannot match. */
const ResourceType = v.pipe(
  v.picklist(AUDIT_RESOURCE_TYPES, `resourceType must be one of ${AUDIT_RESOURCE_TYPES.join(', ')}`),
  v.description('Only writes of this kind of record (`lead`, `company_note`, … as the entries’ `resourceType`).'),
);

/** A record's id as entries hold it: the API's ids, integers as text. */
const ResourceId = v.pipe(
  v.string('resourceId must be a string'),
  v.regex(/^[A-Za-z0-9_]{1,64}$/, 'resourceId must be a record id (letters, digits and _, at most 64)'),
  v.description('With `resourceType`: only writes of this one record (its id as the entries’ `resourceId`; integer ids as written).'),
);

export const AuditLogQuery = v.pipe(
  v.object({
    ...PageQuery.entries,
    keyId: v.optional(v.pipe(PrefixedId('key', 'keyId'), v.description('Only writes made with this API key.'))),
    resourceType: v.optional(ResourceType),
    resourceId: v.optional(ResourceId),
    from: v.optional(Instant('from', 'Only writes made at or after this instant.')),
    to: v.optional(Instant('to', 'Only writes made before this instant; after `from` when both are given.')),
  }),
  v.forward(
    v.check((query) => query.from === undefined || query.to === undefined || query.to > query.from, 'to must be after from'),
    ['to'],
  ),
  v.forward(
    v.check((query) => query.resourceId === undefined || query.resourceType !== undefined, 'resourceId needs resourceType: ids of different kinds of record may be equal'),
    ['resourceId'],
  ),
  // Each filter reads an index partition of its own; a key and a record together have none.
  v.forward(
    v.check((query) => query.keyId === undefined || (query.resourceType === undefined && query.resourceId === undefined), 'keyId cannot be combined with resourceType or resourceId'),
    ['keyId'],
  ),
  v.forward(
    v.check((query) => query.updatedSince === undefined || (query.from === undefined && query.to === undefined), 'updatedSince cannot be combined with from or to'),
    ['updatedSince'],
  ),
);
export type AuditLogQuery = v.InferOutput<typeof AuditLogQuery>;

export const AuditLogPage = pageSchema('entries', AuditEntry);

import * as v from 'valibot';
import { AUDIT_ACTIONS, AUDIT_RETENTION_DAYS, AUDIT_VIAS, type AuditEntry as AuditEntryShape } from '#shared/audit/entry';
import { Instant, PageQuery, pageSchema, PrefixedId, Timestamp } from '#shared/schema';
import { AUDIT_RESOURCE_TYPES } from './resource-types';
import { prose } from '#shared/prose';

export { AUDIT_RESOURCE_TYPES, AUDIT_RETENTION_DAYS };

const nullableString = (description: string) => v.pipe(v.nullable(v.string()), v.description(description));

/** One committed write of one record, and who made it. */
export const AuditEntry = v.object({
  id: v.pipe(v.string(), v.description('`audit_` and a ULID of `at`: entries sort by time.')),
  at: v.pipe(Timestamp, v.description('When the write was made (sent to the table, which committed it).')),
  keyId: nullableString('The API key that made the write; null for an inbound post or provider report, and for the admin CLI.'),
  keyName: nullableString('The name that key was given, if any.'),
  requestId: v.pipe(v.string(), v.description(prose`
    The request that made it: its id, which the answer carried (\`x-amzn-RequestId\` from API Gateway,
    \`x-request-id\` from the local server); every write of one request shares it. An SMS reply or report: the
    provider’s message id; the admin CLI: \`admin_…\`, one per run.
  `)),
  method: nullableString('The HTTP method of that request; null when no HTTP request of the API made it (the admin CLI, an SMS reply or delivery report).'),
  path: nullableString('The path of that request, without its query.'),
  resourceType: v.pipe(v.string(), v.description(`The kind of record written, as the API names it: ${AUDIT_RESOURCE_TYPES.map((type) => `\`${type}\``).join(', ')}.`)),
  resourceId: v.pipe(v.string(), v.description('The record’s id, as text (integer ids too).')),
  action: v.picklist(AUDIT_ACTIONS),
  via: v.pipe(
    v.picklist(AUDIT_VIAS),
    v.description(
      prose`
        \`api\`: a request with an API key; \`mcp\`: one the MCP server made for its client, with the client’s key
        (the key is what is attributed; the label is only the \`x-sales-pipeline-via: mcp\` header it sends) or with
        an OAuth grant of that key (then \`clientId\` names the client); \`inbound\`: a post to an inbound URL, an SMS
        reply or an SMS delivery report; \`admin\`: the operator’s admin CLI; \`automation\`: a step of an
        automation’s run (its \`requestId\` the run’s id); \`session\`: a member’s session, in the console (\`memberId\` names the member).
      `,
    ),
  ),
  clientId: v.pipe(v.optional(v.nullable(v.string()), null), v.description('The OAuth client (its `client_id`) the MCP server made the write for, when an OAuth grant of the key authorized it (`GET /v1/oauth/grants`); null otherwise.')),
  memberId: v.pipe(
    v.optional(v.nullable(v.pipe(v.number(), v.integer())), null),
    v.description(
      'The member (its id in `GET /v1/organization/members`) whose session made the write (`via: session`), or whom the API key or assistant’s grant that made it acts for; null for an organization’s own key and for what no credential wrote.',
    ),
  ),
});
export type AuditEntry = v.InferOutput<typeof AuditEntry>;
// The entry the writers build is the one the API answers (an entry stored before clientId or memberId existed reads as null).
AuditEntry satisfies v.GenericSchema<Omit<AuditEntryShape, 'clientId' | 'memberId'> & { clientId?: string | null; memberId?: number | null }, AuditEntryShape>;

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

import { listRow } from '#shared/routes/rows';
import { AUDIT_RETENTION_DAYS, AuditLogPage, AuditLogQuery } from './schema';
import { prose } from '#shared/prose';

export const listAuditLog = listRow({
  operationId: 'listAuditLog',
  path: '/v1/audit-log',
  summary: 'List who wrote what, newest first',
  description: prose`
    Every committed write of the organization’s records — created, updated or deleted — with the API key and request
    that made it, and how it came (\`via\`: the API, the MCP server on a client’s behalf, an inbound URL or SMS, or
    the operator’s admin CLI). A create or update is listed a moment after it commits (entries are written from the
    table’s change stream), a delete at once. Entries are kept ${AUDIT_RETENTION_DAYS} days. Filter by \`keyId\`, or
    by \`resourceType\` and optionally \`resourceId\`, and by time with \`from\` and \`to\`; a filter that matches
    nothing answers an empty list.
  `,
  tag: 'Audit log',
  dynamodb: ['Query'],
  // gsi1: by key; gsi2: by kind of record; gsi3: by record.
  indexes: ['gsi1', 'gsi2', 'gsi3'],
  request: { query: AuditLogQuery },
  response: AuditLogPage,
});

export const auditLogRoutes = [listAuditLog];

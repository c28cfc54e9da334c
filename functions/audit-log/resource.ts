import { auditKeys, auditKeySamples } from '#shared/audit/entry';
import { defineResource, namedComponents } from '#shared/resource';
import * as examples from './examples';
import { auditLogRoutes } from './routes';
import { AuditEntry } from './schema';

/**
 * Who wrote what: an entry per committed write of a record. Its items and keys are shared/audit/entry.ts's, as every
 * resource's delete writes one; this folder lists them and derives the others from the table's stream (derive.ts).
 */
export const auditLog = defineResource({
  name: 'audit-log',
  tags: { 'Audit log': 'Who wrote what: every committed write of a record, with the API key and request that made it.' },
  routes: auditLogRoutes,
  // Who and what reaches the organization: an admin's alone, read or changed (shared/member-roles.ts).
  sessionRoles: { read: 'ADMIN', write: 'ADMIN' },
  components: namedComponents({ AuditEntry }, examples),
  keys: [{ builders: auditKeys, samples: auditKeySamples }],
});

import type { IsolationCases } from '#shared/resource';

/**
 * How the audit log's route answers another organization (test/isolation.test.ts): its filters name records and
 * keys, but every one reads a partition of the caller's (`ORG#<org>#AUDIT…`), so A's ids match nothing of B's.
 * functions/audit-log/audit-log.test.ts shows it with A's real entries.
 */
export const isolationCases: IsolationCases = {
  listAuditLog: [
    { path: (ids) => `/v1/audit-log?resourceType=lead&resourceId=${ids.leadId}`, expect: 'empty-list' },
    { path: (ids) => `/v1/audit-log?resourceType=webhook&resourceId=${ids.webhookId}`, expect: 'empty-list' },
  ],
};

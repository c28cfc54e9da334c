import { lead } from '../leads/examples';

/** The audit entry's example in the OpenAPI document: the key that changed the example lead. */
export const auditEntry = {
  id: 'audit_01JCZ5A2B3C4D5E6F7G8H9J0KM',
  at: '2026-11-02T21:20:41.512Z',
  keyId: 'key_01JA1B2C3D4E5F6G7H8J9K0M1N',
  keyName: 'Zapier',
  requestId: 'c1f5b7de-3d6a-4f1e-9b0a-7c2d8e4f6a13',
  method: 'PATCH',
  path: `/v1/leads/${lead.id}`,
  resourceType: 'lead',
  resourceId: lead.id,
  action: 'updated',
  via: 'api',
  clientId: null,
  memberId: null,
};

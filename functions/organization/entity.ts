import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Key, type KeySamples } from '#shared/store/keys';
import type { OrganizationRecord } from './schema';
import type { AuditedRecord } from '#shared/resource';
import type { SharedPartition } from '#shared/table';

const org = organizationPartition;

export const organizationKeys = {
  organization: (o: string): Key => ({ pk: org(o), sk: 'ORGANIZATION' }),
  /**
   * An SMS number's one owner: the organization whose smsSenderId it is, written in the same transaction as the
   * organization's change. Inbound SMS name only the number they were sent to, so this partition cannot start
   * with the organization; its item holds the organization's id and nothing else of it.
   */
  smsNumberClaim: (number: string): Key => ({ pk: `SMSNUMBER#${number}`, sk: 'CLAIM' }),
  /** An admin's alert of one event (functions/sms/owner-alerts.ts): sent, or why not, once however often the event comes. */
  ownerAlert: (o: string, eventId: string, memberId: number): Key => ({ pk: org(o), sk: `OWNERALERT#${eventId}#${memberId}` }),
} as const;

/**
 * The SMS number claims, a named exception to the organization's keys (docs/data-model.md): PATCH /v1/organization reads,
 * takes and lets go of a claim in the transaction that changes the sender id, signed for its organization.
 */
export const SMS_NUMBER_CLAIMS: SharedPartition = {
  keys: `${organizationKeys.smsNumberClaim('').pk}*`,
  actions: ['GetItem', 'PutItem', 'DeleteItem'],
  why: 'an inbound SMS names only the number it was sent to, so the claim that finds its organization cannot start with one',
};

const O = SAMPLE_ORGANIZATION_ID;

export const organizationKeySamples: KeySamples<typeof organizationKeys> = {
  organization: () => organizationKeys.organization(O),
  smsNumberClaim: () => organizationKeys.smsNumberClaim('+61412345678'),
  ownerAlert: () => organizationKeys.ownerAlert(O, 'evt_1', 1),
};

export const toOrganizationItem = (organization: OrganizationRecord) => ({ ...organizationKeys.organization(organization.id), entity: 'ORGANIZATION', ...organization });

/** The organization's settings, as the audit log names it (GET /v1/audit-log). */
export const organizationAudit: AuditedRecord = { entity: 'ORGANIZATION', resourceType: 'organization' };

/** An API key of the organization (its items are shared/auth/api-key.ts's, written by the admin CLI), as the audit log names it (GET /v1/audit-log). */
export const apiKeyAudit: AuditedRecord = { entity: 'API_KEY', resourceType: 'api_key', idField: 'keyId' };

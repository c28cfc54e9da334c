import { organizationPartition, pad, type Collection, type Key } from '#shared/store/keys';
import type { SharedPartition } from '#shared/table';

const org = organizationPartition;

/**
 * What a member signs in with, kept under the member in its organization's partition: its sessions and its passkeys,
 * each passkey's credential id claimed across every organization. The console signs members in with them
 * (functions/console); their keys are here, with the member's, because they end with the member.
 */
export const memberCredentialKeys = {
  session: (o: string, memberId: number, tokenHash: string): Key => ({ pk: org(o), sk: `SESSION#${pad(memberId)}#${tokenHash}` }),
  /** Every session of one member: "sign out everywhere" is one Query of this. */
  sessionsOfMember: (o: string, memberId: number): Collection => ({ pk: org(o), skPrefix: `SESSION#${pad(memberId)}#` }),
  passkey: (o: string, memberId: number, credentialId: string): Key => ({ pk: org(o), sk: `PASSKEY#${pad(memberId)}#${credentialId}` }),
  passkeysOfMember: (o: string, memberId: number): Collection => ({ pk: org(o), skPrefix: `PASSKEY#${pad(memberId)}#` }),
  /**
   * A credential id's one holder, put with its passkey in one transaction only where absent and deleted with it: the
   * index of passkeys by credential id cannot be conditioned on, and a second passkey of one id would stop the first
   * from signing in.
   */
  credentialClaim: (credentialId: string): Key => ({ pk: `CREDENTIAL#${credentialId}`, sk: 'CLAIM' }),
} as const;

/** The browsers a member subscribed to push notices (functions/notifications), under the member: gone with the member. */
export const memberPushKeys = {
  pushSubscription: (o: string, memberId: number, subscriptionId: string): Key => ({ pk: org(o), sk: `PUSH#${pad(memberId)}#${subscriptionId}` }),
  pushSubscriptionsOfMember: (o: string, memberId: number): Collection => ({ pk: org(o), skPrefix: `PUSH#${pad(memberId)}#` }),
} as const;

/**
 * The credential ids' claims, a named exception to the organization's keys (docs/data-model.md): a member's passkey
 * routes, and a member's removal, take or free one in the transaction that enrols or removes its passkey, signed for
 * its organization.
 */
export const CREDENTIAL_CLAIMS: SharedPartition = {
  keys: `${memberCredentialKeys.credentialClaim('').pk}*`,
  actions: ['PutItem', 'DeleteItem'],
  why: 'a passkey’s credential id is unique across every member and organization, so its claim cannot start with one',
};

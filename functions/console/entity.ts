import { organizationPartition, pad, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '#shared/store/keys';
import type { SharedPartition } from '#shared/table';

const org = organizationPartition;

/**
 * The console's items. A member's sessions, passkeys and pending passkey enrolment live in its organization's
 * partition. What a person signing in presents names no organization: a phone's sign-in code, a sign-in challenge and a
 * passkey's credential id are named exceptions (test/keys.test.ts), keyed by exactly that and holding nothing else.
 * So is a credential id's claim: WebAuthn's credential ids are one namespace across every member and organization.
 */
export const consoleKeys = {
  session: (o: string, memberId: number, tokenHash: string): Key => ({ pk: org(o), sk: `SESSION#${pad(memberId)}#${tokenHash}` }),
  /** Every session of one member: "sign out everywhere" is one Query of this. */
  sessionsOfMember: (o: string, memberId: number): Collection => ({ pk: org(o), skPrefix: `SESSION#${pad(memberId)}#` }),
  /** The one code a phone was last sent, by the SHA-256 of the phone. */
  signInCode: (phoneHash: string): Key => ({ pk: `SIGNIN#${phoneHash}`, sk: 'CODE' }),
  /** A passkey sign-in's challenge, by itself: the person has not said who they are yet. */
  signInChallenge: (challenge: string): Key => ({ pk: `SIGNIN#CHALLENGE#${challenge}`, sk: 'CHALLENGE' }),
  passkey: (o: string, memberId: number, credentialId: string): Key => ({ pk: org(o), sk: `PASSKEY#${pad(memberId)}#${credentialId}` }),
  passkeysOfMember: (o: string, memberId: number): Collection => ({ pk: org(o), skPrefix: `PASSKEY#${pad(memberId)}#` }),
  /** gsi1: a passkey by its credential id, which is all a sign-in with it presents. */
  passkeyByCredential: (credentialId: string) => ({ gsi1pk: `PASSKEY#${credentialId}`, gsi1sk: 'PASSKEY' }),
  /**
   * A credential id's one holder, put with its passkey in one transaction only where absent and deleted with it: the
   * index above cannot be conditioned on, and a second passkey of one id would stop the first from signing in.
   */
  credentialClaim: (credentialId: string): Key => ({ pk: `CREDENTIAL#${credentialId}`, sk: 'CLAIM' }),
  /** The member's enrolment under way: one at a time, its challenge single use. */
  enrolment: (o: string, memberId: number): Key => ({ pk: org(o), sk: `PASSKEYENROLMENT#${pad(memberId)}` }),
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const consoleKeySamples: KeySamples<typeof consoleKeys> = {
  session: () => consoleKeys.session(O, 1, 'abc'),
  sessionsOfMember: () => consoleKeys.sessionsOfMember(O, 1),
  signInCode: () => consoleKeys.signInCode('abc'),
  signInChallenge: () => consoleKeys.signInChallenge('abc'),
  passkey: () => consoleKeys.passkey(O, 1, 'cred_1'),
  passkeysOfMember: () => consoleKeys.passkeysOfMember(O, 1),
  passkeyByCredential: () => consoleKeys.passkeyByCredential('cred_1'),
  credentialClaim: () => consoleKeys.credentialClaim('cred_1'),
  enrolment: () => consoleKeys.enrolment(O, 1),
};

/**
 * The credential ids' claims, a named exception to the organization's keys (docs/data-model.md): a member's passkey
 * routes take and free one in the transaction that enrols or removes a passkey, signed for its organization.
 */
export const CREDENTIAL_CLAIMS: SharedPartition = {
  keys: `${consoleKeys.credentialClaim('').pk}*`,
  actions: ['PutItem', 'DeleteItem'],
  why: 'a passkey’s credential id is unique across every member and organization, so its claim cannot start with one',
};

export const SESSION_ENTITY = 'MEMBER_SESSION';
export const PASSKEY_ENTITY = 'PASSKEY';
export const CREDENTIAL_CLAIM_ENTITY = 'CREDENTIAL_CLAIM';


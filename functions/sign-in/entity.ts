import { organizationPartition, pad, SAMPLE_ORGANIZATION_ID, type Key, type KeySamples } from '#shared/store/keys';
import { memberCredentialKeys } from '../organization/member-credential-keys';

export { CREDENTIAL_CLAIMS } from '../organization/member-credential-keys';

const org = organizationPartition;

/**
 * The console's items. A member's sessions, passkeys and pending passkey enrolment live in its organization's
 * partition. What a person signing in presents names no organization: a phone's sign-in code, a sign-in challenge and a
 * passkey's credential id are named exceptions (test/keys.test.ts), keyed by exactly that and holding nothing else.
 * So is a credential id's claim: WebAuthn's credential ids are one namespace across every member and organization.
 */
export const signInKeys = {
  /** A member's sessions and passkeys and the passkeys' claims: the member's, with the member (functions/organization/member-credential-keys.ts). */
  ...memberCredentialKeys,
  /** The one code a phone was last sent, by the SHA-256 of the phone. */
  signInCode: (phoneHash: string): Key => ({ pk: `SIGNIN#${phoneHash}`, sk: 'CODE' }),
  /** A passkey sign-in's challenge, by itself: the person has not said who they are yet. */
  signInChallenge: (challenge: string): Key => ({ pk: `SIGNIN#CHALLENGE#${challenge}`, sk: 'CHALLENGE' }),
  /** gsi1: a passkey by its credential id, which is all a sign-in with it presents. */
  passkeyByCredential: (credentialId: string) => ({ gsi1pk: `PASSKEY#${credentialId}`, gsi1sk: 'PASSKEY' }),
  /** The member's enrolment under way: one at a time, its challenge single use. */
  enrolment: (o: string, memberId: number): Key => ({ pk: org(o), sk: `PASSKEYENROLMENT#${pad(memberId)}` }),
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const signInKeySamples: KeySamples<typeof signInKeys> = {
  session: () => signInKeys.session(O, 1, 'abc'),
  sessionsOfMember: () => signInKeys.sessionsOfMember(O, 1),
  signInCode: () => signInKeys.signInCode('abc'),
  signInChallenge: () => signInKeys.signInChallenge('abc'),
  passkey: () => signInKeys.passkey(O, 1, 'cred_1'),
  passkeysOfMember: () => signInKeys.passkeysOfMember(O, 1),
  passkeyByCredential: () => signInKeys.passkeyByCredential('cred_1'),
  credentialClaim: () => signInKeys.credentialClaim('cred_1'),
  enrolment: () => signInKeys.enrolment(O, 1),
};

export const SESSION_ENTITY = 'MEMBER_SESSION';
export const PASSKEY_ENTITY = 'PASSKEY';
export const CREDENTIAL_CLAIM_ENTITY = 'CREDENTIAL_CLAIM';


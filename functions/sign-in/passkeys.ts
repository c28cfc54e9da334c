import { createHash } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { config } from '#shared/config';
import { clock } from '#shared/clock';
import { ApiError, NotFoundError } from '#shared/errors';
import { logger } from '#shared/observability';
import { TTL_ATTRIBUTE } from '#shared/table';
import { itemAtGsi1, queryAll } from '#shared/store/query-page';
import { conditionNotHeld, deleteItem, insertIfAbsent, transact, writeAlone, writeAloneAnsweringOld } from '#shared/store/transact';
import { readItem } from '#shared/store/read-item';
import { setFields } from '#shared/store/update-fields';
import { getMember } from '../organization/member-store';
import type { Member } from '../organization/member-schema';
import { signInKeys, CREDENTIAL_CLAIM_ENTITY, PASSKEY_ENTITY } from './entity';
import type { Passkey } from './schema';
import { PASSKEY_CHALLENGE_MINUTES } from './settings';

/** Where passkeys are for: the console's origin, and its host as the relying party's id (a passkey works on that host alone). */
export interface RelyingParty {
  origin: string;
  id: string;
}

export const relyingPartyOf = (baseUrl: string): RelyingParty => {
  const url = new URL(baseUrl);
  return { origin: url.origin, id: url.hostname };
};

const RP_NAME = 'Sales Pipeline';

/** The WebAuthn library (CBOR, COSE and ASN.1 with it), loaded by the first ceremony: the sign-in routes' code alone is small at a cold start. */
let webauthn: Promise<typeof import('@simplewebauthn/server')> | undefined;
const loadWebAuthn = () => (webauthn ??= import('@simplewebauthn/server'));
const CHALLENGE_MS = PASSKEY_CHALLENGE_MINUTES * 60_000;

export const passkeyRefused = (why: string) => new ApiError(400, `The passkey was not accepted: ${why}. Sign in with a code sent by text instead.`, 'PASSKEY_REFUSED');

/** WebAuthn §7.1 step 22: a credential id registered to anyone, this member included, is not registered again. */
const credentialTaken = () => new ApiError(409, 'This passkey is enrolled already, here or for another member: a passkey signs in as one member alone. Make a new one on the authenticator.', 'CREDENTIAL_TAKEN');
const passkeyNotFound = () => new NotFoundError('Passkey not found');

/** The opaque id the authenticator keeps for the member (never a name, email or phone). */
const userHandleOf = (organizationId: string, memberId: number) => new Uint8Array(createHash('sha256').update(`${organizationId}#${memberId}`).digest());

interface StoredPasskey extends Passkey {
  organizationId: string;
  memberId: number;
  publicKey: string;
  counter: number;
  transports: string[];
}

const toPasskey = ({ id, name, createdAt, lastUsedAt }: StoredPasskey): Passkey => ({ id, name, createdAt, lastUsedAt });

/** Whose a passkey's item is, read from its key alone: `ORG#<organization>`, `PASSKEY#<member>#<credential id>`. */
function holderOf({ pk, sk }: Record<string, unknown>): { organizationId: string; memberId: number; credentialId: string } | undefined {
  const organizationId = /^ORG#([^#]+)$/.exec(String(pk))?.[1];
  const passkey = /^PASSKEY#(\d{10})#(.+)$/.exec(String(sk));
  return organizationId && passkey ? { organizationId, memberId: Number(passkey[1]), credentialId: passkey[2]! } : undefined;
}

/**
 * A passkey's item as the passkey, its organization and member those of its key. An item whose attributes name
 * another credential, organization or member than its key is none: it was not written by enrolment.
 */
function fromItem(item: Record<string, unknown>): StoredPasskey | undefined {
  const holder = holderOf(item);
  if (!holder || item.id !== holder.credentialId || item.organizationId !== holder.organizationId || item.memberId !== holder.memberId) return undefined;
  return {
    id: holder.credentialId,
    name: String(item.name),
    createdAt: String(item.createdAt),
    lastUsedAt: typeof item.lastUsedAt === 'string' ? item.lastUsedAt : null,
    organizationId: holder.organizationId,
    memberId: holder.memberId,
    publicKey: String(item.publicKey),
    counter: Number(item.counter),
    transports: Array.isArray(item.transports) ? item.transports.map(String) : [],
  };
}

export async function listPasskeys(organizationId: string, memberId: number): Promise<Passkey[]> {
  return (await queryAll(signInKeys.passkeysOfMember(organizationId, memberId))).flatMap((item) => {
    const stored = fromItem(item);
    return stored ? [toPasskey(stored)] : [];
  });
}

/** A member's passkeys, as an ADMIN reads them: a member the organization does not have answers 404. */
export async function passkeysOfMember(organizationId: string, memberId: number): Promise<Passkey[]> {
  const [member, passkeys] = await Promise.all([getMember(organizationId, memberId), listPasskeys(organizationId, memberId)]);
  if (!member) throw new NotFoundError('Member not found');
  return passkeys;
}

/**
 * Removes a member's passkey (404 when the member has none of that id) and frees its credential id, in one
 * transaction: the passkey signs in no more, and its id may be enrolled again.
 */
export async function removePasskey(organizationId: string, memberId: number, credentialId: string): Promise<void> {
  await transact([deleteItem(signInKeys.passkey(organizationId, memberId, credentialId), passkeyNotFound), deleteItem(signInKeys.credentialClaim(credentialId))]);
}

/** The options of a new passkey's enrolment, its challenge kept for the member (a new enrolment replaces one under way). */
export async function enrolmentOptions(organizationId: string, member: Member, rp: RelyingParty) {
  const existing = await queryAll(signInKeys.passkeysOfMember(organizationId, member.id), ['id', 'transports']);
  const { generateRegistrationOptions } = await loadWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: member.user.email,
    userDisplayName: `${member.firstName} ${member.lastName}`,
    userID: userHandleOf(organizationId, member.id),
    attestationType: 'none',
    excludeCredentials: existing.map((item) => ({ id: String(item.id), transports: Array.isArray(item.transports) ? item.transports.map(String) : [] })),
    // A discoverable credential, so signing in asks for no name or phone; and the person proved present and verified.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_MS,
  });
  const atMs = clock.now();
  await writeAlone({ item: { Put: { TableName: config.tableName, Item: { ...signInKeys.enrolment(organizationId, member.id), entity: 'PASSKEY_ENROLMENT', ...challengeKept(options.challenge, atMs) } } } });
  return options;
}

/** A challenge as it is kept until the browser answers it, and gone by its TTL after. */
const challengeKept = (challenge: string, atMs: number) => ({ challenge, expiresAt: new Date(atMs + CHALLENGE_MS).toISOString(), [TTL_ATTRIBUTE]: Math.ceil((atMs + CHALLENGE_MS) / 1000) });

/** Takes the item of a challenge, once: deleted on condition it is still there, so a replayed response finds none. */
async function takeChallenge(key: { pk: string; sk: string }): Promise<string | undefined> {
  // Without the condition, two deletes at once may both be answered the item (DynamoDB Local does so): both would take it.
  const Attributes = await writeAloneAnsweringOld(deleteItem(key, conditionNotHeld));
  if (!Attributes || String(Attributes.expiresAt) <= new Date(clock.now()).toISOString()) return undefined;
  return String(Attributes.challenge);
}

/** Verifies the authenticator's new credential against the member's enrolment under way, and keeps it. */
export async function addPasskey(organizationId: string, member: Member, credential: RegistrationResponseJSON, name: string | undefined, rp: RelyingParty): Promise<Passkey> {
  const challenge = await takeChallenge(signInKeys.enrolment(organizationId, member.id));
  if (!challenge) throw passkeyRefused('no enrolment is under way (ask for the options again)');
  const { verifyRegistrationResponse } = await loadWebAuthn();
  const verification = await verifyRegistrationResponse({ response: credential, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true }).catch((error: unknown) => {
    throw passkeyRefused((error as Error).message);
  });
  if (!verification.verified) throw passkeyRefused('the authenticator’s answer did not verify');
  const { credential: made, credentialDeviceType } = verification.registrationInfo;
  const createdAt = new Date(clock.now()).toISOString();
  const stored: StoredPasskey = {
    id: made.id,
    name: name ?? (credentialDeviceType === 'multiDevice' ? 'Synced passkey' : 'Passkey on this device'),
    createdAt,
    lastUsedAt: null,
    organizationId,
    memberId: member.id,
    publicKey: Buffer.from(made.publicKey).toString('base64url'),
    counter: made.counter,
    transports: made.transports ?? [],
  };
  // The credential id is claimed with the passkey: of two enrolments of one id, by anyone, one is kept.
  await transact([
    insertIfAbsent({ ...signInKeys.credentialClaim(made.id), entity: CREDENTIAL_CLAIM_ENTITY, organizationId, memberId: member.id, claimedAt: createdAt }, credentialTaken),
    insertIfAbsent({ ...signInKeys.passkey(organizationId, member.id, made.id), ...signInKeys.passkeyByCredential(made.id), entity: PASSKEY_ENTITY, ...stored }, credentialTaken),
  ]);
  return toPasskey(stored);
}

/** A passkey sign-in's options: no credential named (the authenticator offers the person's passkeys), the challenge kept. */
export async function signInOptions(rp: RelyingParty) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: CHALLENGE_MS });
  const atMs = clock.now();
  await writeAlone({ item: { Put: { TableName: config.tableName, Item: { ...signInKeys.signInChallenge(options.challenge), entity: 'SIGN_IN_CHALLENGE', ...challengeKept(options.challenge, atMs) } } } });
  return options;
}

/** The challenge the browser signed, from its client data (checked against the one kept, which it must be). */
function challengeOf(credential: AuthenticationResponseJSON): string | undefined {
  try {
    const data: unknown = JSON.parse(Buffer.from(credential.response.clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/** The member a passkey's assertion signs in as: its challenge taken once, its signature verified, its counter moved. */
export async function useSignInPasskey(credential: AuthenticationResponseJSON, rp: RelyingParty): Promise<{ organizationId: string; member: Member }> {
  const asked = challengeOf(credential);
  const challenge = asked && (await takeChallenge(signInKeys.signInChallenge(asked)));
  if (!challenge) throw passkeyRefused('its challenge is unknown, used or expired (ask for the options again)');
  const entry = await itemAtGsi1(signInKeys.passkeyByCredential(credential.id));
  const stored = entry && (await passkeyAt(entry, credential.id));
  if (!stored) throw passkeyRefused('it is not enrolled here');
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  const verification = await verifyAuthenticationResponse({
    response: credential,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: stored.id, publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')), counter: stored.counter, transports: stored.transports },
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw passkeyRefused((error as Error).message);
  });
  if (!verification.verified) throw passkeyRefused('its signature did not verify');
  const member = await getMember(stored.organizationId, stored.memberId);
  if (!member || member.isDisabled) throw passkeyRefused('its member is no longer active');
  await recordUse(stored, verification.authenticationInfo.newCounter);
  return { organizationId: stored.organizationId, member };
}

/**
 * The passkey the index's entry names: its organization and member taken from the entry's key, and its item read again
 * by that key (consistently, so a passkey removed a moment ago is gone), held to it as every passkey item is.
 */
async function passkeyAt(entry: Record<string, unknown>, credentialId: string): Promise<StoredPasskey | undefined> {
  const holder = holderOf(entry);
  if (!holder || holder.credentialId !== credentialId) return undefined;
  const Item = await readItem(signInKeys.passkey(holder.organizationId, holder.memberId, credentialId));
  return Item && fromItem(Item);
}

/** The passkey's counter and last use; bookkeeping that never refuses a sign-in that verified. */
async function recordUse(passkey: StoredPasskey, counter: number): Promise<void> {
  await writeAlone(setFields(signInKeys.passkey(passkey.organizationId, passkey.memberId, passkey.id), { counter, lastUsedAt: new Date(clock.now()).toISOString() }, { onConditionFailed: conditionNotHeld }))
    .catch((error: unknown) => logger.warn('could not record a passkey’s use', { error: error as Error }));
}

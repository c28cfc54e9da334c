import { createHash } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { clock } from '#shared/clock';
import { ApiError } from '#shared/errors';
import { logger } from '#shared/observability';
import { TTL_ATTRIBUTE } from '#shared/table';
import { itemAtGsi1, queryAll } from '#shared/store/query-page';
import { insertIfAbsent, writeAlone } from '#shared/store/transact';
import { getMember } from '../organization/member-store';
import type { Member } from '../organization/member-schema';
import { consoleKeys, PASSKEY_ENTITY } from './entity';
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

const fromItem = (item: Record<string, unknown>): StoredPasskey => ({
  id: String(item.id),
  name: String(item.name),
  createdAt: String(item.createdAt),
  lastUsedAt: typeof item.lastUsedAt === 'string' ? item.lastUsedAt : null,
  organizationId: String(item.organizationId),
  memberId: Number(item.memberId),
  publicKey: String(item.publicKey),
  counter: Number(item.counter),
  transports: Array.isArray(item.transports) ? item.transports.map(String) : [],
});

export async function listPasskeys(organizationId: string, memberId: number): Promise<Passkey[]> {
  return (await queryAll(consoleKeys.passkeysOfMember(organizationId, memberId))).map((item) => toPasskey(fromItem(item)));
}

/** The options of a new passkey's enrolment, its challenge kept for the member (a new enrolment replaces one under way). */
export async function enrolmentOptions(organizationId: string, member: Member, rp: RelyingParty) {
  const existing = await queryAll(consoleKeys.passkeysOfMember(organizationId, member.id), ['id', 'transports']);
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
  await dynamo.send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...consoleKeys.enrolment(organizationId, member.id), entity: 'PASSKEY_ENROLMENT', challenge: options.challenge, expiresAt: new Date(atMs + CHALLENGE_MS).toISOString(), [TTL_ATTRIBUTE]: Math.ceil((atMs + CHALLENGE_MS) / 1000) },
    }),
  );
  return options;
}

/** Takes the item of a challenge, once: deleted on condition it is still there, so a replayed response finds none. */
async function takeChallenge(key: { pk: string; sk: string }): Promise<string | undefined> {
  const { Attributes } = await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: key, ReturnValues: 'ALL_OLD' }));
  if (!Attributes || String(Attributes.expiresAt) <= new Date(clock.now()).toISOString()) return undefined;
  return String(Attributes.challenge);
}

/** Verifies the authenticator's new credential against the member's enrolment under way, and keeps it. */
export async function addPasskey(organizationId: string, member: Member, credential: RegistrationResponseJSON, name: string | undefined, rp: RelyingParty): Promise<Passkey> {
  const challenge = await takeChallenge(consoleKeys.enrolment(organizationId, member.id));
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
  await writeAlone(
    insertIfAbsent({ ...consoleKeys.passkey(organizationId, member.id, made.id), ...consoleKeys.passkeyByCredential(made.id), entity: PASSKEY_ENTITY, ...stored }, () => passkeyRefused('this passkey is already enrolled')),
  );
  return toPasskey(stored);
}

/** A passkey sign-in's options: no credential named (the authenticator offers the person's passkeys), the challenge kept. */
export async function signInOptions(rp: RelyingParty) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: CHALLENGE_MS });
  const atMs = clock.now();
  await dynamo.send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...consoleKeys.signInChallenge(options.challenge), entity: 'SIGN_IN_CHALLENGE', challenge: options.challenge, expiresAt: new Date(atMs + CHALLENGE_MS).toISOString(), [TTL_ATTRIBUTE]: Math.ceil((atMs + CHALLENGE_MS) / 1000) },
    }),
  );
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
  const challenge = asked && (await takeChallenge(consoleKeys.signInChallenge(asked)));
  if (!challenge) throw passkeyRefused('its challenge is unknown, used or expired (ask for the options again)');
  const item = await itemAtGsi1(consoleKeys.passkeyByCredential(credential.id));
  if (!item) throw passkeyRefused('it is not enrolled here');
  const stored = fromItem(item);
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

/** The passkey's counter and last use; bookkeeping that never refuses a sign-in that verified. */
async function recordUse(passkey: StoredPasskey, counter: number): Promise<void> {
  await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: consoleKeys.passkey(passkey.organizationId, passkey.memberId, passkey.id),
        UpdateExpression: 'SET #counter = :counter, lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#counter': 'counter' },
        ExpressionAttributeValues: { ':counter': counter, ':now': new Date(clock.now()).toISOString() },
      }),
    )
    .catch((error: unknown) => logger.warn('could not record a passkey’s use', { error: error as Error }));
}

import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { config } from '#shared/config';
import { ApiError } from '#shared/errors';
import { dynamo } from '#shared/dynamo';
import { logger } from '#shared/observability';
import { pad } from '#shared/store/keys';
import { createMember } from '../organization/member-rules';
import { useTestApi } from '../../test/support/api';
import { commandsSentBy } from '../../test/support/dynamo-calls';
import { SoftwarePasskey, type Answering } from '../../test/support/software-passkey';
import { signInKeys } from './entity';
import { addPasskey, enrolmentOptions, listPasskeys, relyingPartyOf, signInOptions, useSignInPasskey } from './passkeys';

/**
 * The passkey store's rules, through its functions against DynamoDB Local, with passkeys made in the test
 * (test/support/software-passkey.ts): what an enrolment and a sign-in ask of the authenticator, how long and how often
 * their challenges hold, which answers verify, and which of the table's items are passkeys. The API's routes over them:
 * ./passkeys.test.ts.
 */
const api = useTestApi({ clock: 'manual' });

const CHALLENGE_MS = 5 * 60_000;
const rp = () => relyingPartyOf(api.url);
const newPasskey = (id?: string) => new SoftwarePasskey(new URL(api.url).origin, id);
const at = (ms: number) => new Date(ms).toISOString();

let members = 0;
/** A new member (of a new organization unless one is given). */
async function newMember(organizationId?: string) {
  const n = ++members;
  const organization = organizationId ?? (await api.organization()).organizationId;
  const member = await createMember(organization, { role: 'MEMBER', firstName: 'Pat', lastName: `Lee${n}`, email: `pat${n}@example.com`, phone: `+614123${String(70_000 + n)}` });
  return { organizationId: organization, member };
}
type Holder = Awaited<ReturnType<typeof newMember>>;

type Registration = ReturnType<SoftwarePasskey['register']>;
const add = ({ organizationId, member }: Holder, credential: Registration, name?: string) => addPasskey(organizationId, member, credential as unknown as RegistrationResponseJSON, name, rp());

/** Enrols the passkey for the member: the options asked, the authenticator's answer (changed by `answer` if given) kept. */
async function enrol(holder: Holder, passkey: SoftwarePasskey, name?: string, answer = (credential: Registration) => credential) {
  return add(holder, answer(passkey.register(await enrolmentOptions(holder.organizationId, holder.member, rp()))), name);
}

const assertion = (credential: ReturnType<SoftwarePasskey['assert']>) => useSignInPasskey(credential as unknown as AuthenticationResponseJSON, rp());
const signIn = async (passkey: SoftwarePasskey, answering?: Answering) => assertion(passkey.assert((await signInOptions(rp())).challenge, answering));

/** `accepted`, or the refusal as the API answers it (its status, code and message), or the failure (its name and message). */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: Error) => (error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : `${error.name}: ${error.message}`),
  );
const refused = (why: string) => `400 PASSKEY_REFUSED: The passkey was not accepted: ${why}. Sign in with a code sent by text instead.`;
const NO_ENROLMENT = refused('no enrolment is under way (ask for the options again)');
const UNKNOWN_CHALLENGE = refused('its challenge is unknown, used or expired (ask for the options again)');
const NOT_ENROLLED = refused('it is not enrolled here');

const read = async (key: { pk: string; sk: string }) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }))).Item;
const put = (item: Record<string, unknown>) => dynamo.send(new PutCommand({ TableName: config.tableName, Item: item }));
const remove = (key: { pk: string; sk: string }) => dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: key }));
const update = (key: { pk: string; sk: string }, expression: string, values?: Record<string, unknown>) =>
  dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key, UpdateExpression: expression, ExpressionAttributeValues: values }));

/** The authenticator's attestation object, changed by `change` (a `none` attestation signs nothing, so it still verifies). */
function withAttestation(credential: Registration, change: (attestation: Map<string, unknown>) => void): Registration {
  const attestation = isoCBOR.decodeFirst<Map<string, unknown>>(Buffer.from(credential.response.attestationObject, 'base64url'));
  change(attestation);
  return { ...credential, response: { ...credential.response, attestationObject: Buffer.from(isoCBOR.encode(attestation as never)).toString('base64url') } };
}

/** As a synced passkey's authenticator answers: backup eligible and backed up (flags BE and BS). */
const synced = (credential: Registration) =>
  withAttestation(credential, (attestation) => {
    const authData = Uint8Array.from(attestation.get('authData') as Uint8Array);
    authData[32]! |= 0x08 | 0x10;
    attestation.set('authData', authData);
  });

/** A `packed` self attestation whose signature is another key's than the credential's. */
const signedByAnotherKey = (credential: Registration) =>
  withAttestation(credential, (attestation) => {
    const clientDataHash = createHash('sha256').update(Buffer.from(credential.response.clientDataJSON, 'base64url')).digest();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signature = sign('sha256', Buffer.concat([attestation.get('authData') as Uint8Array, clientDataHash]), privateKey);
    attestation.set('fmt', 'packed');
    attestation.set('attStmt', new Map<string, unknown>([['alg', -7], ['sig', new Uint8Array(signature)]]));
  });

describe('a passkey’s enrolment', () => {
  it('asks for a discoverable credential of this site, the person verified, under a handle of the member alone', async () => {
    const holder = await newMember();
    const options = await enrolmentOptions(holder.organizationId, holder.member, rp());
    expect(options).toEqual({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      rp: { name: 'Sales Pipeline', id: new URL(api.url).hostname },
      user: { id: options.user.id, name: holder.member.user.email, displayName: `Pat ${holder.member.lastName}` },
      // ES256 among them, the passkeys' own algorithm.
      pubKeyCredParams: expect.arrayContaining([{ alg: -7, type: 'public-key' }]),
      timeout: CHALLENGE_MS,
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required', requireResidentKey: true },
      extensions: { credProps: true },
      hints: [],
    });
    // The handle is 32 opaque bytes, the same for the member each time, and another's for any other member.
    expect(Buffer.from(options.user.id, 'base64url')).toHaveLength(32);
    expect((await enrolmentOptions(holder.organizationId, holder.member, rp())).user.id).toBe(options.user.id);
    const colleague = await newMember(holder.organizationId);
    const elsewhere = await newMember();
    const handles = [colleague, elsewhere].map(async ({ organizationId, member }) => (await enrolmentOptions(organizationId, member, rp())).user.id);
    expect(new Set([options.user.id, ...(await Promise.all(handles))]).size).toBe(3);
  });

  it('keeps its challenge five minutes for one answer: taken a millisecond before the end, refused at the end, once taken, and when none was asked', async () => {
    const holder = await newMember();
    const key = signInKeys.enrolment(holder.organizationId, holder.member.id);
    const asked = api.clock.now();
    const options = await enrolmentOptions(holder.organizationId, holder.member, rp());
    expect(await read(key)).toEqual({ ...key, entity: 'PASSKEY_ENROLMENT', challenge: options.challenge, expiresAt: at(asked + CHALLENGE_MS), expiresAtEpoch: Math.ceil((asked + CHALLENGE_MS) / 1000) });

    await api.advanceTime(CHALLENGE_MS - 1);
    const answer = newPasskey().register(options);
    expect(await outcome(add(holder, answer))).toBe('accepted');
    expect(await read(key)).toBeUndefined();
    expect(await outcome(add(holder, answer))).toBe(NO_ENROLMENT);

    const late = await enrolmentOptions(holder.organizationId, holder.member, rp());
    await api.advanceTime(CHALLENGE_MS);
    expect(await outcome(add(holder, newPasskey().register(late)))).toBe(NO_ENROLMENT);
    const never = await newMember();
    expect(await outcome(add(never, newPasskey().register(options)))).toBe(NO_ENROLMENT);
    expect(await listPasskeys(holder.organizationId, holder.member.id)).toHaveLength(1);
  });

  it('keeps one of two answers to one challenge sent at once', async () => {
    const holder = await newMember();
    const options = await enrolmentOptions(holder.organizationId, holder.member, rp());
    const outcomes = await Promise.all([newPasskey(), newPasskey()].map((passkey) => outcome(add(holder, passkey.register(options), 'Phone'))));
    expect(outcomes.sort()).toEqual([NO_ENROLMENT, 'accepted']);
    expect(await listPasskeys(holder.organizationId, holder.member.id)).toEqual([{ id: expect.any(String), name: 'Phone', createdAt: at(api.clock.now()), lastUsedAt: null }]);
  });

  it('refuses an attestation whose signature does not verify, keeping nothing: the credential may be enrolled again', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    expect(await outcome(enrol(holder, passkey, 'Phone', signedByAnotherKey))).toBe(refused('the authenticator’s answer did not verify'));
    expect(await listPasskeys(holder.organizationId, holder.member.id)).toEqual([]);
    expect(await read(signInKeys.credentialClaim(passkey.id))).toBeUndefined();
    expect(await outcome(enrol(holder, passkey, 'Phone'))).toBe('accepted');
  });

  it('names a passkey by its kind when the member gives no name: synced, or on this device', async () => {
    const holder = await newMember();
    const onDevice = await enrol(holder, newPasskey());
    const backedUp = await enrol(holder, newPasskey(), undefined, synced);
    expect([onDevice.name, backedUp.name]).toEqual(['Passkey on this device', 'Synced passkey']);
    const listed = await listPasskeys(holder.organizationId, holder.member.id);
    expect(listed.map(({ name }) => name).sort()).toEqual(['Passkey on this device', 'Synced passkey']);
  });

  it('names the member’s passkeys for the authenticator to make no second, with the transports theirs named', async () => {
    const holder = await newMember();
    const internal = newPasskey();
    const untold = newPasskey();
    await enrol(holder, internal);
    await enrol(holder, untold, undefined, (credential) => ({ ...credential, response: { ...credential.response, transports: undefined as never } }));
    const { excludeCredentials } = await enrolmentOptions(holder.organizationId, holder.member, rp());
    const expected = [
      { id: internal.id, type: 'public-key', transports: ['internal'] },
      { id: untold.id, type: 'public-key', transports: [] },
    ];
    expect(excludeCredentials).toEqual(expected.sort((a, b) => (a.id < b.id ? -1 : 1)));
  });
});

describe('a passkey sign-in', () => {
  it('asks for any passkey of this site, the person verified, its challenge kept five minutes for one assertion', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    await enrol(holder, passkey);
    const asked = api.clock.now();
    const options = await signInOptions(rp());
    expect(options).toEqual({ rpId: new URL(api.url).hostname, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), timeout: CHALLENGE_MS, userVerification: 'required' });
    const key = signInKeys.signInChallenge(options.challenge);
    expect(await read(key)).toEqual({ ...key, entity: 'SIGN_IN_CHALLENGE', challenge: options.challenge, expiresAt: at(asked + CHALLENGE_MS), expiresAtEpoch: Math.ceil((asked + CHALLENGE_MS) / 1000) });

    await api.advanceTime(CHALLENGE_MS - 1);
    expect((await assertion(passkey.assert(options.challenge))).member.id).toBe(holder.member.id);
    expect(await outcome(assertion(passkey.assert(options.challenge)))).toBe(UNKNOWN_CHALLENGE);
    const late = await signInOptions(rp());
    await api.advanceTime(CHALLENGE_MS);
    expect(await outcome(assertion(passkey.assert(late.challenge)))).toBe(UNKNOWN_CHALLENGE);
  });

  it('signs in once with two assertions of one challenge sent at once', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    await enrol(holder, passkey);
    const { challenge } = await signInOptions(rp());
    const outcomes = await Promise.all([passkey.assert(challenge), passkey.assert(challenge)].map((credential) => outcome(assertion(credential))));
    expect(outcomes.sort()).toEqual([UNKNOWN_CHALLENGE, 'accepted']);
  });

  it('fails as the table failed when its challenge could not be taken, the challenge still there for one assertion', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    await enrol(holder, passkey);
    const { challenge } = await signInOptions(rp());
    let failed = '';
    expect(await commandsSentBy(async () => (failed = await outcome(assertion(passkey.assert(challenge)))), 0)).toEqual(['DeleteItemCommand']);
    expect(failed).toBe('TimeoutError: Request timed out');
    expect((await assertion(passkey.assert(challenge))).member.id).toBe(holder.member.id);
  });

  it('refuses, with no look-up, a challenge the API cannot have made: too short or long, not base64url, not a string, not JSON', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    await enrol(holder, passkey);
    const { challenge } = await signInOptions(rp());
    const signing = (clientData: unknown) => {
      const credential = passkey.assert(challenge);
      const clientDataJSON = Buffer.from(typeof clientData === 'string' ? clientData : JSON.stringify(clientData)).toString('base64url');
      return { ...credential, response: { ...credential.response, clientDataJSON } };
    };
    const claiming = (value: unknown) => signing({ type: 'webauthn.get', challenge: value, origin: new URL(api.url).origin, crossOrigin: false });
    const tried = async (credential: ReturnType<SoftwarePasskey['assert']>) => {
      let answer = '';
      const commands = await commandsSentBy(async () => (answer = await outcome(assertion(credential))));
      return { answer, commands };
    };
    const malformed = ['a'.repeat(15), 'a'.repeat(129), `.${challenge}`, `${challenge}.`, `${challenge.slice(0, 20)}#${challenge.slice(21)}`, [challenge], 1234567890123456789];
    for (const value of malformed) expect(await tried(claiming(value)), JSON.stringify(value)).toEqual({ answer: UNKNOWN_CHALLENGE, commands: [] });
    expect(await tried(claiming(undefined))).toEqual({ answer: UNKNOWN_CHALLENGE, commands: [] });
    expect(await tried(signing('not JSON'))).toEqual({ answer: UNKNOWN_CHALLENGE, commands: [] });
    // The shortest and longest it could have made are looked up (and are none of its).
    for (const value of ['a'.repeat(16), 'a'.repeat(128)]) expect(await tried(claiming(value))).toEqual({ answer: UNKNOWN_CHALLENGE, commands: ['DeleteItemCommand'] });
    // None of those took the challenge the API did make.
    expect((await assertion(passkey.assert(challenge))).member.id).toBe(holder.member.id);
  });

  it('refuses an assertion signed by another key under the passkey’s credential id, recording no use', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    await enrol(holder, passkey);
    expect(await outcome(signIn(newPasskey(passkey.id)))).toBe(refused('its signature did not verify'));
    expect((await listPasskeys(holder.organizationId, holder.member.id))[0]!.lastUsedAt).toBeNull();
    expect((await signIn(passkey)).member.id).toBe(holder.member.id);
  });

  it('signs in when recording the passkey’s use fails, and warns of it; the next sign-in records it', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    await enrol(holder, passkey);
    const sent = await commandsSentBy(() => signIn(passkey));
    const usedAt = at(api.clock.now());
    await api.advanceTime('PT1M');
    const warn = vi.spyOn(logger, 'warn');
    try {
      const signed = await commandsSentBy(() => signIn(passkey), sent.indexOf('UpdateItemCommand'));
      expect(signed).toEqual(sent);
      expect(warn).toHaveBeenCalledWith(expect.any(String), { error: expect.objectContaining({ name: 'TimeoutError' }) });
    } finally {
      warn.mockRestore();
    }
    expect((await listPasskeys(holder.organizationId, holder.member.id))[0]!.lastUsedAt).toBe(usedAt);
    await api.advanceTime('PT1M');
    expect((await signIn(passkey)).organizationId).toBe(holder.organizationId);
    expect((await listPasskeys(holder.organizationId, holder.member.id))[0]!.lastUsedAt).toBe(at(api.clock.now()));
  });
});

describe('which items are passkeys', () => {
  it('lists the member’s items that are passkeys by their key and attributes alike; one never used is listed unused', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    const enrolled = await enrol(holder, passkey, 'Work phone');
    const key = signInKeys.passkey(holder.organizationId, holder.member.id, passkey.id);
    const { gsi1pk: _pk, gsi1sk: _sk, ...item } = (await read(key))!;
    // Among the member's passkeys by their keys: one that names no credential, and one whose id is not its key's.
    await put({ ...item, sk: `PASSKEY#${pad(holder.member.id)}#` });
    await put({ ...item, sk: `PASSKEY#${pad(holder.member.id)}#${newPasskey().id}` });
    // Kept before a use was recorded, with no lastUsedAt at all.
    await update(key, 'REMOVE lastUsedAt');
    expect(await listPasskeys(holder.organizationId, holder.member.id)).toEqual([{ ...enrolled, lastUsedAt: null }]);
  });

  it('signs in only with the item an index entry’s key names by organization, member and credential, its id its key’s', async () => {
    const holder = await newMember();
    const passkey = newPasskey();
    await enrol(holder, passkey);
    const key = signInKeys.passkey(holder.organizationId, holder.member.id, passkey.id);
    const index = signInKeys.passkeyByCredential(passkey.id);
    // The passkey's own item out of the index: entries that merely resemble its key are all the index has.
    await update(key, 'REMOVE gsi1pk, gsi1sk');
    expect(await outcome(signIn(passkey))).toBe(NOT_ENROLLED);
    const entries = [
      { pk: `CREDENTIAL#${passkey.id}`, sk: 'CLAIM' },
      { pk: key.pk, sk: `NOTE#${passkey.id}` },
      { pk: `X${key.pk}`, sk: key.sk },
      { pk: `${key.pk}#X`, sk: key.sk },
      { pk: key.pk, sk: `X${key.sk}` },
      { pk: key.pk, sk: `${key.sk}\nX` },
      { pk: key.pk, sk: `PASSKEY#${pad(holder.member.id)}#${newPasskey().id}` },
    ];
    for (const entry of entries) {
      await put({ ...entry, ...index });
      expect(await outcome(signIn(passkey)), JSON.stringify(entry)).toBe(NOT_ENROLLED);
      await remove(entry);
    }
    await update(key, 'SET gsi1pk = :pk, gsi1sk = :sk', { ':pk': index.gsi1pk, ':sk': index.gsi1sk });
    // Its key right, but its id another credential's: no passkey either.
    await update(key, 'SET id = :id', { ':id': newPasskey().id });
    expect(await outcome(signIn(passkey))).toBe(NOT_ENROLLED);
    await update(key, 'SET id = :id', { ':id': passkey.id });
    expect((await signIn(passkey)).member.id).toBe(holder.member.id);
  });
});


import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import type { MemberRole } from '#shared/member-roles';
import { createMember } from '../organization/member-rules';
import { useTestApi, type Client } from '../../test/support/api';
import { codeTextedTo, withHeaders } from '../../test/support/member-session';
import { SoftwarePasskey, type Answering } from '../../test/support/software-passkey';
import { signInKeys } from './entity';

/**
 * Passkeys through the API as the console uses it, with a passkey made in the test (test/support/software-passkey.ts):
 * enrolled by a member signed in with a texted code, signed in with, listed and removed by the member or an ADMIN.
 * A browser's own authenticator signs in too: test/console.test.ts.
 */
const api = useTestApi({ clock: 'manual' });

// Every request of the file comes from one address, which may ask for 10 codes an hour: each test starts an hour on.
beforeEach(() => api.advanceTime('PT1H'));

let phones = 0;
/** A member of `role` with a phone no other member of the file has, signed in: their session as the console sends it. */
async function signedIn(organizationId: string, role: MemberRole = 'MEMBER') {
  const phone = `+614123${String(60_000 + ++phones)}`;
  const member = await createMember(organizationId, { role, firstName: 'Pat', lastName: `Lee${phones}`, email: `pat${phones}@example.com`, phone });
  expect((await api.anonymous.post('/v1/sign-in/codes', { phone })).status).toBe(202);
  const answer = await api.anonymous.post('/v1/sign-in/sessions', { phone, code: await codeTextedTo(api, phone) });
  const token = /^__Host-session=(sps_[^;]+);/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
  expect(answer.status).toBe(201);
  return { member, session: withHeaders(api.as(token!), { 'x-csrf-token': answer.body.session.csrfToken }) };
}

/** A passkey of the API's origin, as the person's phone would make it. */
const newPasskey = (id?: string) => new SoftwarePasskey(new URL(api.url).origin, id);

/** Enrols the passkey for the session's member: the options asked, the authenticator's answer posted. */
async function enrol(session: Client, passkey: SoftwarePasskey, answering?: Answering) {
  const { options } = (await session.post('/v1/me/passkey-options', {})).body;
  return session.post('/v1/me/passkeys', { credential: passkey.register(options, answering), name: 'Work phone' });
}

/** Signs in with the passkey, as the sign-in screen does. */
async function signInWith(passkey: SoftwarePasskey, answering?: Answering) {
  const { challenge } = (await api.anonymous.post('/v1/sign-in/passkey-options', {})).body.options;
  return api.anonymous.post('/v1/sign-in/passkey', { credential: passkey.assert(challenge, answering) });
}

const refusal = (answer: { status: number; body: any }) => ({ status: answer.status, code: answer.body.error?.code });

describe('enrolling a passkey and signing in with it', () => {
  it('enrols a passkey, lists it, and signs in with it as its member and organization, its use recorded', async () => {
    const { organizationId } = await api.organization();
    const { member, session } = await signedIn(organizationId);
    const passkey = newPasskey();
    const enrolled = await enrol(session, passkey);
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.passkey).toEqual({ id: passkey.id, name: 'Work phone', createdAt: expect.any(String), lastUsedAt: null });
    expect((await session.get('/v1/me')).body.session.passkeys).toEqual([enrolled.body.passkey]);

    const signed = await signInWith(passkey);
    expect(signed.status).toBe(201);
    expect(signed.body.session).toMatchObject({ member: { id: member.id }, organization: { id: organizationId } });
    const [listed] = (await session.get('/v1/me')).body.session.passkeys;
    expect(listed.lastUsedAt).toBe(new Date(api.clock.now()).toISOString());
    // Signed in with twice: the authenticator's counter moved on each time, and the API's with it.
    expect((await signInWith(passkey)).status).toBe(201);
  });

  it('refuses a sign-in whose person the authenticator did not verify', async () => {
    const { organizationId } = await api.organization();
    const { session } = await signedIn(organizationId);
    const passkey = newPasskey();
    expect((await enrol(session, passkey)).status).toBe(201);
    const unverified = await signInWith(passkey, { userVerified: false });
    expect(refusal(unverified)).toEqual({ status: 400, code: 'PASSKEY_REFUSED' });
    expect(unverified.body.error.message).toContain('User verification required');
    expect((await signInWith(passkey)).status).toBe(201);
  });

  it('refuses an enrolment whose person was not verified, or made for another site', async () => {
    const { organizationId } = await api.organization();
    const { session } = await signedIn(organizationId);
    const unverified = await enrol(session, newPasskey(), { userVerified: false });
    expect(refusal(unverified)).toEqual({ status: 400, code: 'PASSKEY_REFUSED' });
    // The browser's origin is right, but the authenticator's credential is for another relying party.
    const elsewhere = await enrol(session, newPasskey(), { rpId: 'sales-pipeline.example.com' });
    expect(refusal(elsewhere)).toEqual({ status: 400, code: 'PASSKEY_REFUSED' });
    expect(elsewhere.body.error.message).toContain('RP ID');
    expect((await session.get('/v1/me')).body.session.passkeys).toEqual([]);
  });

  it('refuses a disabled member’s passkey, and signs them in with it once enabled again', async () => {
    const { organizationId } = await api.organization();
    const { session: admin } = await signedIn(organizationId, 'ADMIN');
    const { member, session } = await signedIn(organizationId);
    const passkey = newPasskey();
    expect((await enrol(session, passkey)).status).toBe(201);
    expect((await admin.patch(`/v1/organization/members/${member.id}`, { isDisabled: true })).status).toBe(200);
    const refused = await signInWith(passkey);
    expect(refusal(refused)).toEqual({ status: 400, code: 'PASSKEY_REFUSED' });
    expect(refused.body.error.message).toContain('its member is no longer active');
    expect((await admin.patch(`/v1/organization/members/${member.id}`, { isDisabled: false })).status).toBe(200);
    expect((await signInWith(passkey)).status).toBe(201);
  });
});

describe('a credential id, one member’s across every organization', () => {
  it('refuses another member’s credential id, of this organization or another, and the same member’s again: the first still signs in', async () => {
    const { organizationId } = await api.organization();
    const first = await signedIn(organizationId);
    const passkey = newPasskey();
    expect((await enrol(first.session, passkey)).status).toBe(201);

    const colleague = await signedIn(organizationId);
    const stranger = await signedIn((await api.organization()).organizationId);
    // Each makes a key pair of its own under the first member's credential id.
    for (const { session } of [colleague, stranger, first]) {
      const taken = await enrol(session, newPasskey(passkey.id));
      expect(refusal(taken)).toEqual({ status: 409, code: 'CREDENTIAL_TAKEN' });
    }
    expect((await colleague.session.get('/v1/me')).body.session.passkeys).toEqual([]);
    expect((await stranger.session.get('/v1/me')).body.session.passkeys).toEqual([]);
    const signed = await signInWith(passkey);
    expect(signed.body.session).toMatchObject({ member: { id: first.member.id }, organization: { id: organizationId } });
  });

  it('keeps one of two enrolments of one credential id at once, by members of two organizations', async () => {
    const [one, two] = await Promise.all([signedIn((await api.organization()).organizationId), signedIn((await api.organization()).organizationId)]);
    const id = newPasskey().id;
    const answers = await Promise.all([enrol(one.session, newPasskey(id)), enrol(two.session, newPasskey(id))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });
});

describe('what a passkey sign-in reads', () => {
  it('takes the organization and member from the passkey item’s key, and refuses an item whose attributes name others', async () => {
    const { organizationId } = await api.organization();
    const { member, session } = await signedIn(organizationId);
    const other = await signedIn((await api.organization()).organizationId);
    const passkey = newPasskey();
    expect((await enrol(session, passkey)).status).toBe(201);
    const key = signInKeys.passkey(organizationId, member.id, passkey.id);
    const rewrite = (names: Record<string, unknown>) =>
      dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key, UpdateExpression: 'SET organizationId = :o, memberId = :m', ExpressionAttributeValues: { ':o': names.organizationId, ':m': names.memberId } }));

    // Its attributes say it is another organization's member: the key says otherwise, so it is no passkey.
    await rewrite({ organizationId: (await other.session.get('/v1/me')).body.session.organization.id, memberId: other.member.id });
    const refused = await signInWith(passkey);
    expect(refusal(refused)).toEqual({ status: 400, code: 'PASSKEY_REFUSED' });
    expect(refused.body.error.message).toContain('it is not enrolled here');
    // Another member of its own organization, by its attributes alone: the same.
    await rewrite({ organizationId, memberId: member.id + 1 });
    expect((await signInWith(passkey)).body.error.message).toContain('it is not enrolled here');

    await rewrite({ organizationId, memberId: member.id });
    expect((await signInWith(passkey)).body.session).toMatchObject({ member: { id: member.id }, organization: { id: organizationId } });
  });
});

describe('removing a passkey', () => {
  const claimOf = async (credentialId: string) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: signInKeys.credentialClaim(credentialId), ConsistentRead: true }))).Item;

  it('removes the member’s own: it signs in no more, and its credential id is free again; another member’s answers 404', async () => {
    const { organizationId } = await api.organization();
    const { member, session } = await signedIn(organizationId);
    const colleague = await signedIn(organizationId);
    const passkey = newPasskey();
    const theirs = newPasskey();
    expect((await enrol(session, passkey)).status).toBe(201);
    expect((await enrol(colleague.session, theirs)).status).toBe(201);
    expect(await claimOf(passkey.id)).toMatchObject({ entity: 'CREDENTIAL_CLAIM', organizationId, memberId: member.id });

    expect(refusal(await session.delete(`/v1/me/passkeys/${theirs.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect((await signInWith(theirs)).status).toBe(201);

    expect((await session.delete(`/v1/me/passkeys/${passkey.id}`)).body).toEqual({ success: true, id: passkey.id });
    expect((await session.get('/v1/me')).body.session.passkeys).toEqual([]);
    const refused = await signInWith(passkey);
    expect(refusal(refused)).toEqual({ status: 400, code: 'PASSKEY_REFUSED' });
    expect(refused.body.error.message).toContain('it is not enrolled here');
    expect(await claimOf(passkey.id)).toBeUndefined();
    expect(refusal(await session.delete(`/v1/me/passkeys/${passkey.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
    // Its id free, the member enrols it again, and signs in with it.
    expect((await enrol(session, passkey)).status).toBe(201);
    expect((await signInWith(passkey)).status).toBe(201);
  });

  it('lets an ADMIN list and remove a member’s passkeys; a MEMBER is refused, a key too, and another organization’s ADMIN is answered 404', async () => {
    const { organizationId, client } = await api.organization();
    const admin = await signedIn(organizationId, 'ADMIN');
    const { member, session } = await signedIn(organizationId);
    const passkey = newPasskey();
    const kept = newPasskey();
    expect((await enrol(session, passkey)).status).toBe(201);
    expect((await enrol(session, kept)).status).toBe(201);
    const path = `/v1/organization/members/${member.id}/passkeys`;

    const listed = await admin.session.get(path);
    expect(listed.status).toBe(200);
    expect(listed.body.passkeys.map((one: { id: string }) => one.id).sort()).toEqual([passkey.id, kept.id].sort());
    expect(listed.body.passkeys).toEqual((await session.get('/v1/me')).body.session.passkeys);
    expect(refusal(await admin.session.get('/v1/organization/members/2147483000/passkeys'))).toEqual({ status: 404, code: 'NOT_FOUND' });

    // A MEMBER, even the passkey's own, manages no one's passkeys here; a key manages none at all.
    expect((await session.get(path)).status).toBe(403);
    expect((await session.delete(`${path}/${passkey.id}`)).status).toBe(403);
    expect(refusal(await client.get(path))).toEqual({ status: 403, code: 'SESSION_REQUIRED' });
    expect(refusal(await client.delete(`${path}/${passkey.id}`))).toEqual({ status: 403, code: 'SESSION_REQUIRED' });
    const elsewhere = await signedIn((await api.organization()).organizationId, 'ADMIN');
    // Its organization has no member of that id: no member of its own answers for it.
    expect(elsewhere.member.id).toBeLessThan(member.id);
    expect(refusal(await elsewhere.session.get(path))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(refusal(await elsewhere.session.delete(`${path}/${passkey.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
    // The passkey named under another member of its organization is not theirs.
    expect(refusal(await admin.session.delete(`/v1/organization/members/${admin.member.id}/passkeys/${passkey.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });

    expect((await admin.session.delete(`${path}/${passkey.id}`)).body).toEqual({ success: true, id: passkey.id });
    expect((await admin.session.get(path)).body.passkeys.map((one: { id: string }) => one.id)).toEqual([kept.id]);
    expect(refusal(await signInWith(passkey))).toEqual({ status: 400, code: 'PASSKEY_REFUSED' });
    expect(await claimOf(passkey.id)).toBeUndefined();
    expect((await signInWith(kept)).status).toBe(201);
  });
});

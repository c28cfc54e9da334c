import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { hashToken } from '#shared/auth/tokens';
import { keys } from '#shared/store/keys';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../infra/cdk/options';
import { useTestApi } from '../../test/support/api';
import { memberSession, signInWith, type SessionClient } from '../../test/support/member-session';
import { grantedByMember } from '../../test/support/oauth';
import { createMember } from './member-rules';
import { SoftwarePasskey } from '../../test/support/software-passkey';

/**
 * What acts for a member ends with the member, and only people change people: each against the local gateway with the
 * authorizer's cache at its default, every credential used before anything is taken from it.
 */
const api = useTestApi({ authorizerCacheTtlMs: AUTHORIZER_CACHE_TTL_SECONDS.default * 1000 });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const rpc = (method: string) => ({ jsonrpc: '2.0', id: 1, method, params: {} });
let phones = 0;
const nextPhone = () => `+6149157${String(3000 + phones++).padStart(4, '0')}`;

/** An assistant the member signed in to `session` connects: its access and refresh tokens, and the client's id. */
async function assistantOf(session: SessionClient, scope = 'read') {
  const { clientId, tokens } = await grantedByMember(api, session.token, scope);
  const refresh = (token: string) => api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }).toString(), headers: FORM });
  return { access: api.as(tokens.access_token), refreshToken: tokens.refresh_token, refresh };
}

describe('removing a member', () => {
  it('ends their session, their assistant’s tokens and its refresh on the very next request', async () => {
    const { organizationId } = await api.organization();
    const owner = await memberSession(api, organizationId);
    const member = await memberSession(api, organizationId, { role: 'MEMBER' });
    const assistant = await assistantOf(member);
    // Each answered once, so the gateway holds an answer for each.
    expect((await member.get('/v1/leads')).status).toBe(200);
    expect((await assistant.access.post('/mcp', rpc('tools/list'))).status).toBe(200);

    const removed = await owner.delete(`/v1/organization/members/${member.member.id}`);
    expect(removed.status).toBe(200);
    // The key the consent made for the assistant acted for the member: revoked with them.
    expect(removed.body.revokedKeyIds).toHaveLength(1);
    expect((await member.get('/v1/leads')).status).toBe(401);
    expect((await member.post('/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' })).status).toBe(401);
    expect((await assistant.access.post('/mcp', rpc('tools/list'))).status).toBe(401);
    const refreshed = await assistant.refresh(assistant.refreshToken);
    expect([refreshed.status, refreshed.body.error]).toEqual([400, 'invalid_grant']);
    // Nothing of the organization's own changed: the owner works on.
    expect((await owner.get('/v1/leads')).status).toBe(200);
  });

  it('removes their passkeys with them, freeing each credential id for whoever enrols it next', async () => {
    const { organizationId } = await api.organization();
    const owner = await memberSession(api, organizationId);
    const leaving = await memberSession(api, organizationId, { role: 'MEMBER' });
    const passkey = new SoftwarePasskey(new URL(api.url).origin);
    const { options } = (await leaving.post('/v1/me/passkey-options', {})).body;
    expect((await leaving.post('/v1/me/passkeys', { credential: passkey.register(options), name: 'Work phone' })).status).toBe(201);
    const signIn = async () => {
      const { challenge } = (await api.anonymous.post('/v1/sign-in/passkey-options', {})).body.options;
      return api.anonymous.post('/v1/sign-in/passkey', { credential: passkey.assert(challenge) });
    };
    expect((await signIn()).status).toBe(201);
    expect((await owner.delete(`/v1/organization/members/${leaving.member.id}`)).status).toBe(200);
    expect((await signIn()).body.error.code).toBe('PASSKEY_REFUSED');
    // Its credential id is no one's now: the owner may enrol the same authenticator.
    const again = (await owner.post('/v1/me/passkey-options', {})).body.options;
    expect((await owner.post('/v1/me/passkeys', { credential: passkey.register(again), name: 'Shared phone' })).status).toBe(201);
  });

  it('revokes the keys the member made, but those keepKeys names, which then act for the ADMIN removing them', async () => {
    const { organizationId, client: organizationKey } = await api.organization();
    const owner = await memberSession(api, organizationId);
    const leaving = await memberSession(api, organizationId);
    const made = await Promise.all(['Website form', 'Zapier'].map(async (name) => (await leaving.post('/v1/api-keys', { name, scope: 'write' })).body.key));
    const [kept, ended] = made.map((key) => ({ ...key, client: api.as(key.token) }));
    for (const key of [kept!, ended!]) expect((await key.client.get('/v1/leads')).status).toBe(200);

    // Near misses first: each refused naming keepKeys, and nothing removed.
    const ownersKey = (await owner.post('/v1/api-keys', { name: 'Owner’s', scope: 'read' })).body.key;
    for (const keepKeys of [ownersKey.id, `${kept!.id},${ownersKey.id}`, `${kept!.id}x`, kept!.id.slice(0, -1), `${kept!.id},`]) {
      const refused = await owner.delete(`/v1/organization/members/${leaving.member.id}?keepKeys=${encodeURIComponent(keepKeys)}`);
      expect([keepKeys, refused.status, refused.body.error.details?.[0]?.path]).toEqual([keepKeys, 400, 'keepKeys']);
    }
    expect((await leaving.get('/v1/leads')).status).toBe(200);

    const removed = await owner.delete(`/v1/organization/members/${leaving.member.id}?keepKeys=${kept!.id}`);
    expect(removed.body).toEqual({ success: true, id: leaving.member.id, revokedKeyIds: [ended!.id], keptKeyIds: [kept!.id] });
    expect((await ended!.client.get('/v1/leads')).status).toBe(401);
    expect((await kept!.client.get('/v1/leads')).status).toBe(200);
    const listed = (await owner.get('/v1/api-keys')).body.keys as { id: string; memberId: number | null; revokedAt: string | null }[];
    expect(listed.find((key) => key.id === kept!.id)).toMatchObject({ memberId: owner.member.id, revokedAt: null });
    expect(listed.find((key) => key.id === ended!.id)?.revokedAt).not.toBeNull();
    // Kept by the owner, the key is held to the owner's role from now on: demoted to MANAGER, no webhooks.
    const other = await memberSession(api, organizationId);
    expect((await kept!.client.get('/v1/webhooks')).status).toBe(200);
    expect((await other.patch(`/v1/organization/members/${owner.member.id}`, { role: 'MANAGER' })).status).toBe(200);
    expect((await kept!.client.get('/v1/webhooks')).status).toBe(403);
    // A key removing a member keeps its keys for the organization itself.
    const third = await memberSession(api, organizationId);
    const thirds = (await third.post('/v1/api-keys', { name: 'Third’s', scope: 'read' })).body.key;
    const byKey = await organizationKey.delete(`/v1/organization/members/${third.member.id}?keepKeys=${thirds.id}`);
    expect(byKey.body.keptKeyIds).toEqual([thirds.id]);
    expect((await other.get('/v1/api-keys')).body.keys.find((key: { id: string }) => key.id === thirds.id).memberId).toBeNull();
  });

  it('answers one of two removals at once 200 and the other 404, revoking once', async () => {
    const { organizationId } = await api.organization();
    const [first, second] = [await memberSession(api, organizationId), await memberSession(api, organizationId)];
    const leaving = await createMember(organizationId, { role: 'MEMBER', firstName: 'Dan', lastName: 'Russo', email: 'dan@example.com' });
    const answers = await Promise.all([first, second].map((admin) => admin.delete(`/v1/organization/members/${leaving.id}`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
  });

  it('keeps no key for a member removing themself', async () => {
    const { organizationId } = await api.organization();
    await memberSession(api, organizationId);
    const leaving = await memberSession(api, organizationId);
    const key = (await leaving.post('/v1/api-keys', { name: 'Mine', scope: 'read' })).body.key;
    const refused = await leaving.delete(`/v1/organization/members/${leaving.member.id}?keepKeys=${key.id}`);
    expect([refused.status, refused.body.error.details[0].path]).toEqual([400, 'keepKeys']);
    expect((await leaving.delete(`/v1/organization/members/${leaving.member.id}`)).status).toBe(200);
    expect((await api.as(key.token).get('/v1/leads')).status).toBe(401);
  });
});

describe('a member’s role or state changed', () => {
  it('holds a promoted member to the new role on the very next request, and a demoted one', async () => {
    const { organizationId } = await api.organization();
    const owner = await memberSession(api, organizationId);
    const member = await memberSession(api, organizationId, { role: 'MEMBER' });
    expect((await member.get('/v1/audit-log')).status).toBe(403);
    expect((await owner.patch(`/v1/organization/members/${member.member.id}`, { role: 'ADMIN' })).status).toBe(200);
    expect((await member.get('/v1/audit-log')).status).toBe(200);
    expect((await owner.patch(`/v1/organization/members/${member.member.id}`, { role: 'MANAGER' })).status).toBe(200);
    expect((await member.get('/v1/audit-log')).status).toBe(403);
    expect((await member.post('/v1/faqs', {})).status).toBe(400);
  });

  it('refuses everything a disabled member’s session, keys and assistants hold, until an ADMIN enables them', async () => {
    const { organizationId, client: organizationKey } = await api.organization();
    const owner = await memberSession(api, organizationId);
    const member = await memberSession(api, organizationId);
    const key = api.as((await member.post('/v1/api-keys', { name: 'Theirs', scope: 'read' })).body.key.token);
    const assistant = await assistantOf(member);
    for (const answer of [await member.get('/v1/leads'), await key.get('/v1/leads'), await assistant.access.post('/mcp', rpc('tools/list'))]) expect(answer.status).toBe(200);
    // Disabling takes away, which a key may do too.
    expect((await organizationKey.patch(`/v1/organization/members/${member.member.id}`, { isDisabled: true })).status).toBe(200);
    for (const answer of [await member.get('/v1/leads'), await key.get('/v1/leads'), await assistant.access.post('/mcp', rpc('tools/list'))]) expect(answer.status).toBe(401);
    expect((await assistant.refresh(assistant.refreshToken)).body.error).toBe('invalid_grant');
    expect((await owner.patch(`/v1/organization/members/${member.member.id}`, { isDisabled: false })).status).toBe(200);
    for (const answer of [await member.get('/v1/leads'), await key.get('/v1/leads'), await assistant.access.post('/mcp', rpc('tools/list'))]) expect(answer.status).toBe(200);
  });
});

describe('people are managed by people', () => {
  it('refuses a key giving a role above MEMBER, by create, invitation or acceptance, and writes nothing', async () => {
    const { organizationId, client: key } = await api.organization();
    const owner = await memberSession(api, organizationId);
    for (const role of ['ADMIN', 'MANAGER']) {
      const made = await key.post('/v1/organization/members', { email: `${role}@example.com`, firstName: 'Kim', lastName: 'Ng', role, phone: nextPhone() });
      expect([role, made.status, made.body.error.code]).toEqual([role, 403, 'SESSION_REQUIRED']);
      const invited = await key.post('/v1/organization/invitations', { email: `${role}-invite@example.com`, role });
      expect([role, invited.status, invited.body.error.code]).toEqual([role, 403, 'SESSION_REQUIRED']);
    }
    expect((await key.get('/v1/organization/members')).body.totalCount).toBe(1);
    expect((await key.get('/v1/organization/invitations')).body.totalCount).toBe(0);
    // An ADMIN signed in invites an ADMIN; the key cannot accept it in the person's place.
    const invitation = (await owner.post('/v1/organization/invitations', { email: 'ada@example.com', role: 'ADMIN', firstName: 'Ada', lastName: 'Ng' })).body.invitation;
    const accepted = await key.post(`/v1/organization/invitations/${invitation.id}/accept`, {});
    expect([accepted.status, accepted.body.error.code]).toEqual([403, 'SESSION_REQUIRED']);
    expect((await owner.post(`/v1/organization/invitations/${invitation.id}/accept`, {})).status).toBe(201);
    // A MEMBER, said or left to the default, a key may add.
    expect((await key.post('/v1/organization/members', { email: 'm1@example.com', firstName: 'Mo', lastName: 'Li', role: 'MEMBER' })).status).toBe(201);
    expect((await key.post('/v1/organization/members', { email: 'm2@example.com', firstName: 'Mo', lastName: 'Li' })).status).toBe(201);
  });

  it('refuses a key, or an ADMIN’s own key, changing a member’s role or phone: the leaked key cannot make a person who outlives it', async () => {
    const { organizationId } = await api.organization();
    const owner = await memberSession(api, organizationId);
    const adminsKey = api.as((await owner.post('/v1/api-keys', { name: 'Integration', scope: 'full' })).body.key.token);
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Dan', lastName: 'Russo', email: 'dan@example.com', phone: nextPhone() });
    for (const change of [{ role: 'ADMIN' }, { phone: nextPhone() }, { phone: null }, { role: 'MEMBER', position: 'Plumber' }]) {
      const refused = await adminsKey.patch(`/v1/organization/members/${member.id}`, change);
      expect([change, refused.status, refused.body.error.code]).toEqual([change, 403, 'SESSION_REQUIRED']);
    }
    expect((await owner.get(`/v1/organization/members/${member.id}`)).body.member).toMatchObject({ role: 'MEMBER', phone: member.phone, position: null });
    // Anything else a key may change.
    expect((await adminsKey.patch(`/v1/organization/members/${member.id}`, { position: 'Plumber' })).status).toBe(200);
  });
});

describe('signing out everywhere', () => {
  it('ends every session of the member before it answers, and no other member’s', async () => {
    const { organizationId } = await api.organization();
    const phone = nextPhone();
    await createMember(organizationId, { role: 'MEMBER', firstName: 'Dan', lastName: 'Russo', email: 'dan@example.com', phone });
    const [desk, mobile, tablet] = [await signInWith(api, phone), await signInWith(api, phone), await signInWith(api, phone)];
    const other = await memberSession(api, organizationId, { role: 'MEMBER' });
    for (const session of [desk, mobile, tablet, other]) expect((await session.get('/v1/leads')).status).toBe(200);
    const out = await desk.delete('/v1/me/sessions');
    expect([out.status, out.body.signedOut]).toEqual([200, 3]);
    for (const session of [desk, mobile, tablet]) expect((await session.get('/v1/leads')).status).toBe(401);
    expect((await other.get('/v1/leads')).status).toBe(200);
  });
});

describe('the readers of the shared token index', () => {
  it('refuse a key item whose attributes name another organization than its key does', async () => {
    const mine = await api.organization();
    const theirs = await api.organization();
    const keyItem = (token: string, keyId: string, at: string, named: string) => ({
      ...keys.apiKey(at, keyId),
      ...keys.apiKeyByTokenHash(hashToken(token)),
      entity: 'API_KEY',
      keyId,
      organizationId: named,
      scope: 'full',
      tokenHash: hashToken(token),
      createdAt: new Date().toISOString(),
    });
    // A slip in some write: an item in my partition whose attributes say it is theirs, or another key of mine.
    const slipped = `sp_live_${'a'.repeat(43)}`;
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: keyItem(slipped, 'key_01JA1B2C3D4E5F6G7H8J9K0M1N', mine.organizationId, theirs.organizationId) }));
    expect((await api.as(slipped).get('/v1/leads')).status).toBe(401);
    const renamed = `sp_live_${'c'.repeat(43)}`;
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...keyItem(renamed, 'key_01JA1B2C3D4E5F6G7H8J9K0M1P', mine.organizationId, mine.organizationId), keyId: 'key_01JA1B2C3D4E5F6G7H8J9K0M1Q' } }));
    expect((await api.as(renamed).get('/v1/leads')).status).toBe(401);
    // The same item written as it should be, at its own key, is a key of theirs.
    const sound = `sp_live_${'b'.repeat(43)}`;
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: keyItem(sound, 'key_01JA1B2C3D4E5F6G7H8J9K0M1R', theirs.organizationId, theirs.organizationId) }));
    expect((await api.as(sound).get('/v1/organization')).body.organization.id).toBe(theirs.organizationId);
  });
});

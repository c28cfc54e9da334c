import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { memberKeys } from './member-entity';
import { createMember, inviteMember, updateMember } from './member-rules';
import { getMember, writeMemberChanges } from './member-store';
import { StaleWrite } from '#shared/store/versioned';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { holdWrite } from '../../test/support/interleave';
import { createService, ISO_MS } from '../../test/support/fixtures';
import { memberSession, signInWith } from '../../test/support/member-session';

const api = useTestApi();
const USER_ID = /^user_[0-9A-HJKMNP-TV-Z]{26}$/;

const person = (n: number) => ({ role: 'MEMBER' as const, firstName: `Person${n}`, lastName: 'Test', email: `person${n}@example.com.au` });

describe('GET /v1/organization/members', () => {
  it('lists the demo members with accounts, newest first, with every field', async () => {
    const { client, demo } = await api.demoOrganization();
    const res = await client.get('/v1/organization/members');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalPages: 1, currentPage: 1, totalCount: 4 });
    expect(res.body.members.map((m: { id: number }) => m.id)).toEqual([4, 3, 2, 1]);
    expect(res.body.members.map((m: { id: number }) => m.id)).toEqual(demo?.memberIds);
    expect(res.body.members.map((m: { user: { id: string } }) => m.user.id)).toEqual(demo?.userIds);
    expect(res.body.members.map((m: { role: string }) => m.role).sort()).toEqual(['ADMIN', 'MANAGER', 'MEMBER', 'MEMBER']);
    expect(res.body.members[3]).toEqual({
      id: 1,
      role: 'ADMIN',
      firstName: 'Sarah',
      lastName: 'Mitchell',
      position: 'Director',
      responsibility: 'Quotes over $5,000, accounts and supplier relationships',
      avatarImg: 'https://images.harbourcitytrades.com.au/team/sarah-mitchell.jpg',
      isDisabled: false,
      phone: null,
      workingHours: null,
      user: { id: expect.stringMatching(USER_ID), email: 'sarah@harbourcitytrades.com.au' },
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it('leaves the pending invitation of the demo data out of the items and the totalCount', async () => {
    const { client } = await api.demoOrganization();
    const res = await client.get('/v1/organization/members?limit=100');
    expect(res.body.totalCount).toBe(4);
    expect(res.body.members).toHaveLength(4);
    expect(res.body.members.map((m: { user: { email: string } }) => m.user.email)).not.toContain('liam.kelly@harbourcitytrades.com.au');
  });

  it('counts only members with a user account however many invitations are pending', async () => {
    const { client, organizationId } = await api.organization();
    await inviteMember(organizationId, { email: 'first@example.com.au', role: 'MANAGER' });
    const member = await createMember(organizationId, { ...person(1), role: 'ADMIN', avatarImg: null });
    await inviteMember(organizationId, { email: 'second@example.com.au', role: 'MEMBER', firstName: 'Second' });
    const res = await client.get('/v1/organization/members');
    expect(res.body).toEqual({
      members: [
        {
          id: 2,
          role: 'ADMIN',
          firstName: 'Person1',
          lastName: 'Test',
          position: null,
          responsibility: null,
          avatarImg: null,
          isDisabled: false,
          phone: null,
          workingHours: null,
          user: { id: member.user.id, email: 'person1@example.com.au' },
          updatedAt: expect.stringMatching(ISO_MS),
        },
      ],
      totalPages: 1,
      currentPage: 1,
      totalCount: 1,
      nextCursor: null,
    });
  });

  it('writes the user lookup with exactly userId, memberId, email and isDisabled', async () => {
    const { organizationId } = await api.organization();
    const member = await createMember(organizationId, person(1));
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKeys.user(organizationId, member.user.id) }));
    expect(Item).toEqual({ ...memberKeys.user(organizationId, member.user.id), userId: member.user.id, memberId: member.id, email: 'person1@example.com.au', isDisabled: false });
  });

  it('pages with page and limit, and answers an empty page past the end', async () => {
    const { client } = await api.demoOrganization();
    const page1 = await client.get('/v1/organization/members?limit=3');
    expect(page1.body).toMatchObject({ totalPages: 2, currentPage: 1, totalCount: 4 });
    expect(page1.body.members.map((m: { id: number }) => m.id)).toEqual([4, 3, 2]);
    const page2 = await client.get('/v1/organization/members?page=2&limit=3');
    expect(page2.body).toMatchObject({ totalPages: 2, currentPage: 2, totalCount: 4 });
    expect(page2.body.members.map((m: { id: number }) => m.id)).toEqual([1]);
    const past = await client.get('/v1/organization/members?page=3&limit=3');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ members: [], totalPages: 2, currentPage: 3, totalCount: 4, nextCursor: null });
  });

  it('answers an empty first page for an organization with no members', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/organization/members')).body).toEqual({ members: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it.each(['page=0', 'page=x', 'limit=0', 'limit=101', 'limit=2.5'])('answers 400 naming the parameter for %s', async (query) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/organization/members?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.message).toContain(query.split('=')[0]);
  });

  it("never lists another organization's members", async () => {
    const mine = await api.organization();
    const theirs = await api.demoOrganization();
    await createMember(mine.organizationId, person(7));
    const res = await mine.client.get('/v1/organization/members');
    expect(res.body.totalCount).toBe(1);
    expect(res.body.members.map((m: { user: { email: string } }) => m.user.email)).toEqual(['person7@example.com.au']);
    expect((await theirs.client.get('/v1/organization/members')).body.totalCount).toBe(4);
  });

  it('reads a page with one Query and one counter read', async () => {
    const { client } = await api.demoOrganization();
    const calls = await countDynamoCalls(() => client.get('/v1/organization/members?limit=2'));
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });
});

describe('POST /v1/organization/members', () => {
  const sarah = { email: 'sarah@example.com.au', firstName: 'Sarah', lastName: 'Mitchell' };

  it('adds an active member with a user, MEMBER by default, listed first with the count moved', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/organization/members', { ...sarah, position: ' Director ' });
    expect(res.status).toBe(201);
    expect(res.body.member).toEqual({
      id: 1,
      role: 'MEMBER',
      firstName: 'Sarah',
      lastName: 'Mitchell',
      position: 'Director',
      responsibility: null,
      avatarImg: null,
      isDisabled: false,
      phone: null,
      workingHours: null,
      user: { id: expect.stringMatching(USER_ID), email: 'sarah@example.com.au' },
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect((await client.get('/v1/organization/members')).body).toEqual({ members: [res.body.member], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });
  });

  it('answers 409 for an email a member already has, ignoring case, and writes nothing', async () => {
    const { client } = await api.organization();
    await client.post('/v1/organization/members', sarah);
    const res = await client.post('/v1/organization/members', { ...sarah, email: ' SARAH@Example.com.au ', firstName: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ status: 409, message: 'A member or pending invitation with the email SARAH@Example.com.au already exists', code: 'CONFLICT' });
    expect((await client.get('/v1/organization/members')).body.totalCount).toBe(1);
  });

  it('lets exactly one of two concurrent creates with one email through', async () => {
    const { client } = await api.organization();
    const statuses = (await Promise.all([client.post('/v1/organization/members', sarah), client.post('/v1/organization/members', { ...sarah, firstName: 'Twin' })])).map((res) => res.status);
    expect(statuses.sort()).toEqual([201, 409]);
    expect((await client.get('/v1/organization/members')).body.totalCount).toBe(1);
  });

  it('lets another organization use the same email', async () => {
    await (await api.organization()).client.post('/v1/organization/members', sarah);
    const { client } = await api.organization();
    expect((await client.post('/v1/organization/members', sarah)).status).toBe(201);
  });

  it.each([
    ['a missing email', { firstName: 'A', lastName: 'B' }, 'email'],
    ['an invalid email', { ...sarah, email: 'sarah' }, 'email'],
    ['a missing lastName', { email: 'a@example.com', firstName: 'A' }, 'lastName'],
    ['an unknown role', { ...sarah, role: 'OWNER' }, 'role'],
    ['an unknown field', { ...sarah, isDisabled: true }, 'isDisabled'],
  ])('answers 400 for %s, naming the field', async (_, body, field) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/organization/members', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });
});

describe('PATCH /v1/organization/members/{memberId}', () => {
  it('changes role, position, responsibility and isDisabled, and keeps the rest', async () => {
    const { client, organizationId } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    // A role is given by an ADMIN signed in (people are managed by people): the API key is refused, and nothing changes.
    const byKey = await client.patch(`/v1/organization/members/${member.id}`, { role: 'MANAGER', responsibility: 'Scheduling', isDisabled: true });
    expect([byKey.status, byKey.body.error.code]).toEqual([403, 'SESSION_REQUIRED']);
    expect((await client.get(`/v1/organization/members/${member.id}`)).body.member).toEqual(member);
    const admin = await memberSession(api, organizationId);
    const res = await admin.patch(`/v1/organization/members/${member.id}`, { role: 'MANAGER', responsibility: 'Scheduling', isDisabled: true });
    expect(res.status).toBe(200);
    expect(res.body.member).toEqual({ ...member, role: 'MANAGER', responsibility: 'Scheduling', isDisabled: true, updatedAt: expect.stringMatching(ISO_MS) });
    expect(res.body.member.updatedAt > member.updatedAt).toBe(true);
    expect((await client.get(`/v1/organization/members/${member.id}`)).body.member).toEqual(res.body.member);
  });

  it('changes names, position and email: the user answers the new email, and the old one is free at once', async () => {
    const { client, organizationId } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    const res = await client.patch(`/v1/organization/members/${member.id}`, { firstName: 'Daniel', lastName: 'Russo-Hart', position: 'Site Lead', email: ' Daniel@Example.com ' });
    expect(res.status).toBe(200);
    const changed = { ...member, firstName: 'Daniel', lastName: 'Russo-Hart', position: 'Site Lead', user: { id: member.user.id, email: 'Daniel@Example.com' }, updatedAt: expect.stringMatching(ISO_MS) };
    expect(res.body.member).toEqual(changed);
    expect((await client.get(`/v1/organization/members/${member.id}`)).body.member).toEqual(res.body.member);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKeys.user(organizationId, member.user.id) }));
    expect(Item).toMatchObject({ memberId: member.id, email: 'Daniel@Example.com' });
    // The new email is taken, ignoring case; the old one is free for another member.
    expect((await client.post('/v1/organization/members', { email: 'daniel@example.com', firstName: 'Other', lastName: 'One' })).status).toBe(409);
    expect((await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'New', lastName: 'Dan' })).status).toBe(201);
  });

  it('answers 409 for an email another member or a pending invitation has, ignoring case, and changes nothing', async () => {
    const { client } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    await client.post('/v1/organization/members', { email: 'sam@example.com', firstName: 'Sam', lastName: 'Lee' });
    await client.post('/v1/organization/invitations', { email: 'invited@example.com' });
    for (const email of ['SAM@example.com', 'invited@example.com']) {
      const res = await client.patch(`/v1/organization/members/${member.id}`, { email, firstName: 'Changed' });
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({ status: 409, message: `A member or pending invitation with the email ${email} already exists`, code: 'CONFLICT' });
    }
    expect((await client.get(`/v1/organization/members/${member.id}`)).body.member).toEqual(member);
    // Its own email, in another case, is no conflict.
    const recased = await client.patch(`/v1/organization/members/${member.id}`, { email: 'DAN@example.com' });
    expect(recased.status).toBe(200);
    expect(recased.body.member.user.email).toBe('DAN@example.com');
    expect((await client.post('/v1/organization/members', { email: 'dan@EXAMPLE.com', firstName: 'Twin', lastName: 'Dan' })).status).toBe(409);
  });

  it('stops a disabled member’s user sending SMS (400 USER_DISABLED), and lets it again once enabled', async () => {
    const { client, organizationId } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com', phone: '+61412345001' })).body.lead;
    const sms = { userId: member.user.id, leadId: lead.id, message: 'On our way' };
    await client.patch(`/v1/organization/members/${member.id}`, { isDisabled: true });
    const refused = await client.post('/v1/sms', sms);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ status: 400, message: 'userId: the member is disabled and cannot send SMS', code: 'USER_DISABLED' });
    expect((await client.get(`/v1/inquiries?leadId=${lead.id}`)).body.totalCount).toBe(0);
    // Disabling takes authority away, which a key may do; enabling gives it back, which only an ADMIN signed in may.
    expect((await client.patch(`/v1/organization/members/${member.id}`, { isDisabled: false })).status).toBe(403);
    expect((await client.post('/v1/sms', sms)).status).toBe(400);
    expect((await (await memberSession(api, organizationId)).patch(`/v1/organization/members/${member.id}`, { isDisabled: false })).status).toBe(200);
    expect((await client.post('/v1/sms', sms)).status).toBe(201);
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an empty firstName', { firstName: ' ' }, 'firstName'],
    ['an invalid email', { email: 'dan' }, 'email'],
    ['isDisabled that is not a boolean', { isDisabled: 'yes' }, 'isDisabled'],
  ])('answers 400 for %s', async (_, body, field) => {
    const { client } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    const res = await client.patch(`/v1/organization/members/${member.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("answers 404 for an unknown member and for another organization's", async () => {
    const mine = await api.organization();
    const member = (await mine.client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    const { client } = await api.organization();
    for (const id of [member.id, 99]) expect((await client.patch(`/v1/organization/members/${id}`, { isDisabled: true })).status).toBe(404);
    expect((await mine.client.get('/v1/organization/members')).body.members[0].isDisabled).toBe(false);
  });
});

describe("a member's phone", () => {
  const dan = { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' };

  it("reads it in the organization's country and stores it E.164, at create and PATCH; null clears it", async () => {
    const { client, organizationId } = await api.organization();
    expect((await client.patch('/v1/organization', { country: 'NZ' })).status).toBe(200);
    const created = await client.post('/v1/organization/members', { ...dan, phone: '021 123 4567' });
    expect(created.status).toBe(201);
    expect(created.body.member.phone).toBe('+64211234567');
    expect((await client.get(`/v1/organization/members/${created.body.member.id}`)).body.member).toEqual(created.body.member);

    // Where a member's sign-in codes go is changed by an ADMIN signed in, never by a key.
    const byKey = await client.patch(`/v1/organization/members/${created.body.member.id}`, { phone: '+61 412 345 678' });
    expect([byKey.status, byKey.body.error.code]).toEqual([403, 'SESSION_REQUIRED']);
    const admin = await memberSession(api, organizationId);
    const changed = await admin.patch(`/v1/organization/members/${created.body.member.id}`, { phone: '+61 412 345 678' });
    expect(changed.body.member).toEqual({ ...created.body.member, phone: '+61412345678', updatedAt: expect.stringMatching(ISO_MS) });
    const cleared = await admin.patch(`/v1/organization/members/${created.body.member.id}`, { phone: null });
    expect(cleared.body.member.phone).toBeNull();
    expect((await client.get(`/v1/organization/members/${created.body.member.id}`)).body.member).toEqual(cleared.body.member);
  });

  it.each([
    ['text that is no phone', 'call me'],
    ['too few digits for a number', '0412'],
    ['a national number of another country', '0412 345 678'],
    ['a number', 61412345678],
  ])('answers 400 naming phone for %s, at create and PATCH, and writes nothing', async (_, phone) => {
    const { client, organizationId } = await api.organization();
    expect((await client.patch('/v1/organization', { country: 'NZ' })).status).toBe(200);
    const refused = await client.post('/v1/organization/members', { ...dan, phone });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('phone');
    expect((await client.get('/v1/organization/members')).body.totalCount).toBe(0);

    const member = (await client.post('/v1/organization/members', { ...dan, phone: '021 123 4567' })).body.member;
    const patched = await (await memberSession(api, organizationId)).patch(`/v1/organization/members/${member.id}`, { phone });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details[0].path).toBe('phone');
    expect((await client.get(`/v1/organization/members/${member.id}`)).body.member).toEqual(member);
  });
});

describe('invitations', () => {
  it('invites, lists the pending invitation apart from members, and accepting makes it a member with a user', async () => {
    const { organizationId } = await api.organization();
    // A MANAGER is invited, and accepted, by an ADMIN signed in: a key may invite MEMBERs alone (below).
    const client = await memberSession(api, organizationId);
    const invited = await client.post('/v1/organization/invitations', { email: 'Liam@Example.com', role: 'MANAGER', firstName: 'Liam' });
    expect(invited.status).toBe(201);
    const invitation = invited.body.invitation;
    // Members and invitations share one sequence: the ADMIN signed in is member 1.
    expect(invitation).toEqual({ id: 2, email: 'Liam@Example.com', role: 'MANAGER', firstName: 'Liam', lastName: null, status: 'PENDING', createdAt: expect.any(String), updatedAt: invited.body.invitation.createdAt });
    expect((await client.get('/v1/organization/invitations')).body).toEqual({ invitations: [invitation], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });
    expect((await client.get('/v1/organization/members')).body.totalCount).toBe(1);

    const withoutLastName = await client.post(`/v1/organization/invitations/${invitation.id}/accept`);
    expect(withoutLastName.status).toBe(400);
    expect(withoutLastName.body.error.details).toEqual([{ path: 'lastName', message: 'lastName is required: the invitation has none' }]);

    const accepted = await client.post(`/v1/organization/invitations/${invitation.id}/accept`, { lastName: 'Kelly' });
    expect(accepted.status).toBe(201);
    expect(accepted.body.member).toEqual({
      id: invitation.id,
      role: 'MANAGER',
      firstName: 'Liam',
      lastName: 'Kelly',
      position: null,
      responsibility: null,
      avatarImg: null,
      isDisabled: false,
      phone: null,
      workingHours: null,
      user: { id: expect.stringMatching(USER_ID), email: 'Liam@Example.com' },
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect((await client.get('/v1/organization/invitations')).body.totalCount).toBe(0);
    expect((await client.get('/v1/organization/members')).body).toMatchObject({ totalCount: 2, members: [accepted.body.member, expect.anything()] });
    expect((await client.post(`/v1/organization/invitations/${invitation.id}/accept`, {})).status).toBe(404);
  });

  it('answers 409 when the email already belongs to a member or a pending invitation', async () => {
    const { client } = await api.organization();
    await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' });
    await client.post('/v1/organization/invitations', { email: 'liam@example.com' });
    for (const email of ['DAN@example.com', 'liam@EXAMPLE.com']) {
      expect((await client.post('/v1/organization/invitations', { email })).status).toBe(409);
    }
    expect((await client.post('/v1/organization/members', { email: 'liam@example.com', firstName: 'L', lastName: 'K' })).status).toBe(409);
    expect((await client.get('/v1/organization/invitations')).body.totalCount).toBe(1);
  });

  it.each([
    ['a missing email', { role: 'MEMBER' }, 'email'],
    ['an invalid email', { email: 'liam' }, 'email'],
    ['an unknown role', { email: 'liam@example.com', role: 'OWNER' }, 'role'],
    ['an unknown field', { email: 'liam@example.com', expiresAt: '2027-01-01' }, 'expiresAt'],
  ])('answers 400 for an invitation with %s, naming the field, and writes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/organization/invitations', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get('/v1/organization/invitations')).body.totalCount).toBe(0);
  });

  it('pages pending invitations newest first, and answers 400 for a bad page', async () => {
    const { client } = await api.organization();
    for (const name of ['a', 'b', 'c']) await client.post('/v1/organization/invitations', { email: `${name}@example.com` });
    const page = (await client.get('/v1/organization/invitations?limit=2')).body;
    expect(page).toMatchObject({ totalCount: 3, totalPages: 2, currentPage: 1 });
    expect(page.invitations.map((invitation: { email: string }) => invitation.email)).toEqual(['c@example.com', 'b@example.com']);
    expect((await client.get('/v1/organization/invitations?page=0')).status).toBe(400);
  });

  it("answers 404 when accepting another organization's invitation", async () => {
    const mine = await api.organization();
    const invitation = (await mine.client.post('/v1/organization/invitations', { email: 'liam@example.com', firstName: 'Liam', lastName: 'Kelly' })).body.invitation;
    const { client } = await api.organization();
    expect((await client.post(`/v1/organization/invitations/${invitation.id}/accept`)).status).toBe(404);
    expect((await mine.client.get('/v1/organization/invitations')).body.totalCount).toBe(1);
  });
});

describe('GET /v1/organization/members/{memberId}', () => {
  it('answers the member as the list shows it, with one GetItem', async () => {
    const { client, demo } = await api.demoOrganization();
    const listed = (await client.get('/v1/organization/members')).body.members[0];
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.get(`/v1/organization/members/${listed.id}`);
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ member: listed });
    expect(calls).toEqual(['GetItemCommand']);
    expect(listed.id).toBe((demo!.memberIds as number[])[0]);
  });

  it("answers 404 for a pending invitation's id, an unknown id and another organization's member", async () => {
    const mine = await api.organization();
    const member = (await mine.client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    const invitation = (await mine.client.post('/v1/organization/invitations', { email: 'liam@example.com' })).body.invitation;
    const { client } = await api.organization();
    for (const [who, id] of [[mine.client, invitation.id], [mine.client, 999], [client, member.id]] as const) {
      const res = await who.get(`/v1/organization/members/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ status: 404, message: 'Member not found', code: 'NOT_FOUND' });
    }
  });
});

describe('DELETE /v1/organization/members/{memberId}', () => {
  const dan = { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' };

  it('removes the member and its user: its SMS are refused as an unknown user’s, messages it sent keep its userId', async () => {
    const { client, organizationId } = await api.organization();
    await createMember(organizationId, { ...person(1), role: 'ADMIN' });
    const member = (await client.post('/v1/organization/members', dan)).body.member;
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com', phone: '+61412345001' })).body.lead;
    const sms = { userId: member.user.id, leadId: lead.id, message: 'On our way' };
    expect((await client.post('/v1/sms', sms)).status).toBe(201);

    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.delete(`/v1/organization/members/${member.id}`);
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ success: true, id: member.id, revokedKeyIds: [], keptKeyIds: [] });
    // A member that is not an ADMIN: the member, the services naming it, the organization's keys and its passkeys read
    // together, then one transaction (member, user lookup, email claim, counter, the services that named it, the keys
    // acting for it, its passkeys), then the queries of its sessions and its push subscriptions to end (none here).
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'TransactWriteItemsCommand']);

    expect((await client.get(`/v1/organization/members/${member.id}`)).status).toBe(404);
    expect((await client.get('/v1/organization/members')).body).toMatchObject({ totalCount: 1 });
    const refused = await client.post('/v1/sms', sms);
    const unknownUser = await client.post('/v1/sms', { ...sms, userId: 'user_01HZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(unknownUser.body);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKeys.user(organizationId, member.user.id), ConsistentRead: true }));
    expect(Item).toBeUndefined();
    const [inquiry] = (await client.get(`/v1/inquiries?leadId=${lead.id}`)).body.inquiries;
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.messages.map((message: { userId: string }) => message.userId)).toEqual([member.user.id]);
    // Nor can the removed user write a note; its email may join again, as a new member with a new user.
    const company = (await client.post('/v1/companies', { name: 'Harbourside Strata' })).body.company;
    expect((await client.post(`/v1/companies/${company.id}/notes`, { value: 'Hi', userId: member.user.id })).status).toBe(400);
    const again = (await client.post('/v1/organization/members', dan)).body.member;
    expect(again.id).not.toBe(member.id);
    expect(again.user.id).not.toBe(member.user.id);
    expect((await client.delete(`/v1/organization/members/${member.id}`)).status).toBe(404);
  });

  it('takes the member out of every service’s memberIds in its own transaction, so each service can be written back as read', async () => {
    const { client, organizationId } = await api.organization();
    await createMember(organizationId, { ...person(1), role: 'ADMIN' });
    const kate = (await client.post('/v1/organization/members', { ...person(2) })).body.member;
    const leaving = (await client.post('/v1/organization/members', dan)).body.member;
    const service = (memberIds: number[], name: string) => createService(client, { name, duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, memberIds });
    const shared = await service([kate.id, leaving.id], 'Blocked drain');
    const hisAlone = await service([leaving.id], 'Hot water');
    const hers = await service([kate.id], 'Gas fitting');

    let status = 0;
    const calls = await countDynamoCalls(async () => void ({ status } = await client.delete(`/v1/organization/members/${leaving.id}`)));
    expect(status).toBe(200);
    // The member and the two services that named it, in one transaction.
    expect(calls.filter((call) => call === 'TransactWriteItemsCommand')).toHaveLength(1);

    const read = async (id: number) => (await client.get(`/v1/services/${id}`)).body.service;
    expect((await read(shared.id)).memberIds).toEqual([kate.id]);
    // A service its member alone took offers every member again, as memberIds [] always has.
    expect((await read(hisAlone.id)).memberIds).toEqual([]);
    expect(await read(hers.id)).toEqual(hers);
    for (const { id } of [shared, hisAlone, hers]) {
      const { memberIds, name } = await read(id);
      const written = await client.patch(`/v1/services/${id}`, { name, memberIds });
      expect([id, written.status]).toEqual([id, 200]);
    }
  });

  it('leaves no service naming a member removed while the service was being written: that write answers 400 naming the member', async () => {
    const { client, organizationId } = await api.organization();
    await createMember(organizationId, { ...person(1), role: 'ADMIN' });
    const leaving = (await client.post('/v1/organization/members', dan)).body.member;
    // The create has read the member and waits to write; the member's delete finds no service naming it yet.
    const held = holdWrite(/Late call-out/);
    const creating = client.post('/v1/services', { name: 'Late call-out', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, memberIds: [leaving.id] });
    await held.reached;
    expect((await client.delete(`/v1/organization/members/${leaving.id}`)).status).toBe(200);
    held.release();
    const res = await creating;
    expect([res.status, res.body.error?.details?.[0]?.path]).toEqual([400, 'memberIds.0']);
    expect((await client.get('/v1/services')).body.totalCount).toBe(0);
  });

  it('answers 409 LAST_ADMIN for the last ADMIN, and removes an ADMIN while another remains', async () => {
    const { client, organizationId } = await api.organization();
    const first = await createMember(organizationId, { ...dan, role: 'ADMIN' });
    const last = await client.delete(`/v1/organization/members/${first.id}`);
    expect(last.status).toBe(409);
    expect(last.body.error).toMatchObject({ status: 409, code: 'LAST_ADMIN' });
    expect((await client.get(`/v1/organization/members/${first.id}`)).status).toBe(200);

    const second = await createMember(organizationId, { ...person(2), role: 'ADMIN' });
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.delete(`/v1/organization/members/${first.id}`);
    });
    expect(res!.status).toBe(200);
    // An ADMIN: read with the services naming it, the keys and its passkeys, the admins (one Query), then the
    // transaction that also checks another stays ADMIN, then the queries of its sessions and its push subscriptions to end.
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
    expect((await client.delete(`/v1/organization/members/${second.id}`)).status).toBe(409);
  });

  it('answers 409 LAST_ADMIN when the last ADMIN would take another role, and lets one of two ADMINs step down', async () => {
    const { client, organizationId } = await api.organization();
    // The organization's one ADMIN, signed in.
    const owner = await memberSession(api, organizationId);
    const first = (await owner.get('/v1/me')).body.session.member;
    const last = await owner.patch(`/v1/organization/members/${first.id}`, { role: 'MANAGER' });
    expect(last.status).toBe(409);
    expect(last.body.error).toMatchObject({ status: 409, code: 'LAST_ADMIN' });
    expect((await client.get(`/v1/organization/members/${first.id}`)).body.member.role).toBe('ADMIN');
    // Changing anything but the role, or keeping it ADMIN, is not stepping down.
    expect((await owner.patch(`/v1/organization/members/${first.id}`, { role: 'ADMIN', position: 'Director' })).status).toBe(200);

    const second = (await owner.post('/v1/organization/members', { ...person(2), role: 'ADMIN', phone: '+61491571002' })).body.member;
    const stepped = await owner.patch(`/v1/organization/members/${first.id}`, { role: 'MEMBER' });
    expect(stepped.status).toBe(200);
    expect(stepped.body.member.role).toBe('MEMBER');
    // Stepped down, the owner's session holds a MEMBER's role from its very next request.
    expect((await owner.patch(`/v1/organization/members/${second.id}`, { role: 'MANAGER' })).status).toBe(403);
    const other = await signInWith(api, '+61491571002');
    expect((await other.patch(`/v1/organization/members/${second.id}`, { role: 'MANAGER' })).status).toBe(409);
  });

  it('keeps one ADMIN when the last two step down at the same time', async () => {
    const { client, organizationId } = await api.organization();
    const admins = await Promise.all([1, 2].map((n) => createMember(organizationId, { ...person(n), role: 'ADMIN', phone: `+6149157101${n}` })));
    const sessions = await Promise.all(admins.map((admin) => signInWith(api, admin.phone!)));
    // Each signed in and stepping down at once: one is left the last ADMIN (409), or is already a MEMBER when its
    // request is authorized (403); never both gone.
    const statuses = (await Promise.all(admins.map((admin, n) => sessions[n]!.patch(`/v1/organization/members/${admin.id}`, { role: 'MEMBER' })))).map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 200)[0]).toBeOneOf([403, 409]);
    const roles = (await client.get('/v1/organization/members')).body.members.map((member: { role: string }) => member.role);
    expect(roles.filter((role: string) => role === 'ADMIN')).toHaveLength(1);
  });

  it('writes a role change only over the role it checked: a MEMBER promoted meanwhile is read again, as an ADMIN', async () => {
    const { organizationId } = await api.organization();
    const client = await memberSession(api, organizationId);
    const admin = (await client.post('/v1/organization/members', { ...person(1), role: 'ADMIN' })).body.member;
    const promoted = (await client.post('/v1/organization/members', { ...person(2), role: 'MEMBER' })).body.member;
    // A PATCH of the second member read it as a MEMBER, so it checked no ADMIN is left behind ...
    const readAsMember = (await getMember(organizationId, promoted.id))!;
    // ... then it was made ADMIN, and the first ADMIN stepped down, leaving it the last one.
    expect((await client.patch(`/v1/organization/members/${promoted.id}`, { role: 'ADMIN' })).status).toBe(200);
    expect((await client.patch(`/v1/organization/members/${admin.id}`, { role: 'MEMBER' })).status).toBe(200);
    // The ADMIN signed in steps down too, by the domain (its session would be a MEMBER's from now on).
    const me = (await client.get('/v1/me')).body.session.member;
    await updateMember(organizationId, me.id, { role: 'MEMBER' });
    await expect(writeMemberChanges(organizationId, readAsMember, { role: 'MANAGER' })).rejects.toBeInstanceOf(StaleWrite);
    expect((await getMember(organizationId, promoted.id))!.role).toBe('ADMIN');
    // Read again, it is the last ADMIN.
    await expect(updateMember(organizationId, promoted.id, { role: 'MANAGER' })).rejects.toMatchObject({ status: 409, code: 'LAST_ADMIN' });
  });

  it('answers the member as written: a change read before another PATCH is read again, not answered with the old fields', async () => {
    const { client, organizationId } = await api.organization();
    const member = (await client.post('/v1/organization/members', person(1))).body.member;
    const readBefore = (await getMember(organizationId, member.id))!;
    expect((await client.patch(`/v1/organization/members/${member.id}`, { position: 'Director' })).status).toBe(200);
    await expect(writeMemberChanges(organizationId, readBefore, { responsibility: 'Quotes' })).rejects.toBeInstanceOf(StaleWrite);
    const res = await client.patch(`/v1/organization/members/${member.id}`, { responsibility: 'Quotes' });
    expect(res.body.member).toMatchObject({ position: 'Director', responsibility: 'Quotes' });
  });

  it('keeps one ADMIN when the last two are removed at the same time', async () => {
    const { client, organizationId } = await api.organization();
    const admins = [];
    for (const n of [1, 2]) admins.push(await createMember(organizationId, { ...person(n), role: 'ADMIN' }));
    const statuses = (await Promise.all(admins.map((admin) => client.delete(`/v1/organization/members/${admin.id}`)))).map((res) => res.status);
    expect(statuses.sort()).toEqual([200, 409]);
    const left = (await client.get('/v1/organization/members')).body;
    expect(left.totalCount).toBe(1);
    expect(left.members[0].role).toBe('ADMIN');
  });

  it("answers 404 for another organization's member and leaves it", async () => {
    const mine = await api.organization();
    const member = (await mine.client.post('/v1/organization/members', dan)).body.member;
    const { client } = await api.organization();
    expect((await client.delete(`/v1/organization/members/${member.id}`)).status).toBe(404);
    expect((await mine.client.get(`/v1/organization/members/${member.id}`)).body).toEqual({ member });
  });
});

describe('DELETE /v1/organization/invitations/{invitationId}', () => {
  it('cancels a pending invitation: accepting it answers 404, and its email may be invited again', async () => {
    const { client } = await api.organization();
    const invitation = (await client.post('/v1/organization/invitations', { email: 'liam@example.com', firstName: 'Liam', lastName: 'Kelly' })).body.invitation;
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.delete(`/v1/organization/invitations/${invitation.id}`);
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ success: true, id: invitation.id });
    expect(calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect((await client.get('/v1/organization/invitations')).body.totalCount).toBe(0);
    const accept = await client.post(`/v1/organization/invitations/${invitation.id}/accept`);
    expect(accept.status).toBe(404);
    expect(accept.body.error).toEqual({ status: 404, message: 'Invitation not found', code: 'NOT_FOUND' });
    expect((await client.get('/v1/organization/members')).body.totalCount).toBe(0);
    expect((await client.delete(`/v1/organization/invitations/${invitation.id}`)).status).toBe(404);
    expect((await client.post('/v1/organization/invitations', { email: 'LIAM@example.com' })).status).toBe(201);
  });

  it('answers 404 for an invitation already accepted, and leaves the member', async () => {
    const { client } = await api.organization();
    const invitation = (await client.post('/v1/organization/invitations', { email: 'liam@example.com', firstName: 'Liam', lastName: 'Kelly' })).body.invitation;
    expect((await client.post(`/v1/organization/invitations/${invitation.id}/accept`)).status).toBe(201);
    expect((await client.delete(`/v1/organization/invitations/${invitation.id}`)).status).toBe(404);
    expect((await client.get(`/v1/organization/members/${invitation.id}`)).status).toBe(200);
  });

  it("answers 404 for another organization's invitation and leaves it", async () => {
    const mine = await api.organization();
    const invitation = (await mine.client.post('/v1/organization/invitations', { email: 'liam@example.com' })).body.invitation;
    const { client } = await api.organization();
    expect((await client.delete(`/v1/organization/invitations/${invitation.id}`)).status).toBe(404);
    expect((await mine.client.get('/v1/organization/invitations')).body.invitations).toEqual([invitation]);
  });
});

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '../shared/config';
import { dynamo } from '../shared/dynamo';
import { keys } from '../shared/entities/keys';
import { createMemberWithUser, inviteMember } from '../shared/repositories/members';
import { useTestApi } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';

const api = useTestApi();
const USER_ID = /^user_[0-9A-HJKMNP-TV-Z]{26}$/;

const person = (n: number) => ({ role: 'MEMBER' as const, firstName: `Person${n}`, lastName: 'Test', email: `person${n}@example.com.au` });

describe('GET /v1/organization/members', () => {
  it('lists the demo members with accounts, newest first, with every field', async () => {
    const { client, demo } = await api.organization({ demo: true });
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
      user: { id: expect.stringMatching(USER_ID), email: 'sarah@harbourcitytrades.com.au' },
    });
  });

  it('leaves the pending invitation of the demo data out of the items and the totalCount', async () => {
    const { client } = await api.organization({ demo: true });
    const res = await client.get('/v1/organization/members?limit=100');
    expect(res.body.totalCount).toBe(4);
    expect(res.body.members).toHaveLength(4);
    expect(res.body.members.map((m: { user: { email: string } }) => m.user.email)).not.toContain('liam.kelly@harbourcitytrades.com.au');
  });

  it('counts only members with a user account however many invitations are pending', async () => {
    const { client, organizationId } = await api.organization();
    await inviteMember(organizationId, { email: 'first@example.com.au', role: 'MANAGER' });
    const member = await createMemberWithUser(organizationId, { ...person(1), role: 'ADMIN', avatarImg: null });
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
          user: { id: member.user.id, email: 'person1@example.com.au' },
        },
      ],
      totalPages: 1,
      currentPage: 1,
      totalCount: 1,
    });
  });

  it('writes the user lookup with exactly userId, memberId and email', async () => {
    const { organizationId } = await api.organization();
    const member = await createMemberWithUser(organizationId, person(1));
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.user(organizationId, member.user.id) }));
    expect(Item).toEqual({ ...keys.user(organizationId, member.user.id), userId: member.user.id, memberId: member.id, email: 'person1@example.com.au' });
  });

  it('pages with page and limit, and answers an empty page past the end', async () => {
    const { client } = await api.organization({ demo: true });
    const page1 = await client.get('/v1/organization/members?limit=3');
    expect(page1.body).toMatchObject({ totalPages: 2, currentPage: 1, totalCount: 4 });
    expect(page1.body.members.map((m: { id: number }) => m.id)).toEqual([4, 3, 2]);
    const page2 = await client.get('/v1/organization/members?page=2&limit=3');
    expect(page2.body).toMatchObject({ totalPages: 2, currentPage: 2, totalCount: 4 });
    expect(page2.body.members.map((m: { id: number }) => m.id)).toEqual([1]);
    const past = await client.get('/v1/organization/members?page=3&limit=3');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ members: [], totalPages: 2, currentPage: 3, totalCount: 4 });
  });

  it('answers an empty first page for an organization with no members', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/organization/members')).body).toEqual({ members: [], totalPages: 0, currentPage: 1, totalCount: 0 });
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
    const theirs = await api.organization({ demo: true });
    await createMemberWithUser(mine.organizationId, person(7));
    const res = await mine.client.get('/v1/organization/members');
    expect(res.body.totalCount).toBe(1);
    expect(res.body.members.map((m: { user: { email: string } }) => m.user.email)).toEqual(['person7@example.com.au']);
    expect((await theirs.client.get('/v1/organization/members')).body.totalCount).toBe(4);
  });

  it('reads a page with one Query and one counter read', async () => {
    const { client } = await api.organization({ demo: true });
    const calls = await countDynamoCalls(() => client.get('/v1/organization/members?limit=2'));
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });
});

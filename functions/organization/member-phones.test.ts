import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { memberKeys } from './member-entity';
import { useTestApi } from '../../test/support/api';
import { memberSession } from '../../test/support/member-session';

/**
 * A phone is one member's in an organization: a texted code signs a phone in as the one member of each organization it
 * names, so a second member with it could never sign in. Members are managed by an ADMIN signed in, as in the console.
 */
const api = useTestApi();

const person = (n: number, phone: string | null) => ({ role: 'MEMBER' as const, firstName: `Person${n}`, lastName: 'Test', email: `person${n}@example.com.au`, phone });
const phoneClaim = async (organizationId: string, phone: string) =>
  (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKeys.memberPhone(organizationId, phone), ConsistentRead: true }))).Item;

/** An organization and its ADMIN, signed in. */
async function organizationWithAdmin() {
  const { organizationId } = await api.organization();
  return { organizationId, admin: await memberSession(api, organizationId) };
}

describe("a member's phone, one member's in an organization", () => {
  it('refuses a phone another member has, at create and PATCH, in any form of it; another organization’s member may have it', async () => {
    const { organizationId, admin } = await organizationWithAdmin();
    const first = (await admin.post('/v1/organization/members', person(1, '+61 412 345 001'))).body.member;
    expect(await phoneClaim(organizationId, '+61412345001')).toMatchObject({ entity: 'MEMBER_PHONE', memberId: first.id });

    const again = await admin.post('/v1/organization/members', person(2, '0412 345 001'));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'PHONE_TAKEN', details: [{ path: 'phone' }] });
    // The ADMIN and the first member alone.
    expect((await admin.get('/v1/organization/members')).body.totalCount).toBe(2);

    const second = (await admin.post('/v1/organization/members', person(3, '+61412345002'))).body.member;
    const moved = await admin.patch(`/v1/organization/members/${second.id}`, { phone: '+61412345001' });
    expect([moved.status, moved.body.error.code]).toEqual([409, 'PHONE_TAKEN']);
    expect((await admin.get(`/v1/organization/members/${second.id}`)).body.member.phone).toBe('+61412345002');
    // The member's own phone, sent again, is still theirs.
    expect((await admin.patch(`/v1/organization/members/${first.id}`, { phone: '+61412345001', position: 'Plumber' })).status).toBe(200);

    const other = await organizationWithAdmin();
    expect((await other.admin.post('/v1/organization/members', person(4, '+61412345001'))).status).toBe(201);
  });

  it('frees a phone its member changed, cleared or was removed with, for another member at once', async () => {
    const { organizationId, admin } = await organizationWithAdmin();
    const holder = (await admin.post('/v1/organization/members', person(1, '+61412345011'))).body.member;
    expect((await admin.patch(`/v1/organization/members/${holder.id}`, { phone: '+61412345012' })).status).toBe(200);
    expect(await phoneClaim(organizationId, '+61412345011')).toBeUndefined();
    const next = (await admin.post('/v1/organization/members', person(2, '+61412345011'))).body.member;
    expect(next.phone).toBe('+61412345011');

    expect((await admin.patch(`/v1/organization/members/${holder.id}`, { phone: null })).status).toBe(200);
    expect((await admin.post('/v1/organization/members', person(3, '+61412345012'))).status).toBe(201);

    expect((await admin.delete(`/v1/organization/members/${next.id}`)).status).toBe(200);
    expect(await phoneClaim(organizationId, '+61412345011')).toBeUndefined();
    expect((await admin.post('/v1/organization/members', person(4, '+61412345011'))).status).toBe(201);
  });

  it('makes one of two members created at once with one phone, and answers the other 409 PHONE_TAKEN', async () => {
    const { admin } = await organizationWithAdmin();
    const answers = await Promise.all([admin.post('/v1/organization/members', person(1, '+61412345021')), admin.post('/v1/organization/members', person(2, '+61412345021'))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error.code).toBe('PHONE_TAKEN');
    const members = (await admin.get('/v1/organization/members')).body.members as { phone: string | null }[];
    expect(members.filter((one) => one.phone === '+61412345021')).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { organizationKeys } from './entity';
import { memberKeys } from './member-entity';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi } from '../../test/support/api';
import { everyDay, utcDate } from '../../test/support/fixtures';

/** Business hours and closed dates on the organization, working hours on its members, and whether it is open now. */

const api = useTestApi();

describe('PATCH /v1/organization with businessHours and closedDates', () => {
  it('stores them, reads them back, and answers whether the business is open now', async () => {
    const { client } = await api.organization();
    const unset = (await client.get('/v1/organization')).body.organization;
    expect(unset).toMatchObject({ businessHours: null, closedDates: [], isOpenNow: null, closesAt: null, nextOpenAt: null });

    const hours = { monday: [{ open: '07:00', close: '12:00' }, { open: '13:00', close: '17:00' }], saturday: [{ open: '08:00', close: '12:00' }] };
    const res = await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: hours, closedDates: ['2026-12-25', '2027-01-26'] });
    expect(res.status).toBe(200);
    expect(res.body.organization).toMatchObject({ businessHours: hours, closedDates: ['2026-12-25', '2027-01-26'] });
    expect(typeof res.body.organization.isOpenNow).toBe('boolean');
    expect((await client.get('/v1/organization')).body.organization).toMatchObject({ timezone: 'Australia/Sydney', businessHours: hours, closedDates: ['2026-12-25', '2027-01-26'] });
  });

  it('is open now all day every day, with no closing to name, and closed now on closed dates, opening the day after', async () => {
    const { client } = await api.organization();
    const open = await client.patch('/v1/organization', { timezone: 'UTC', businessHours: everyDay([{ open: '00:00', close: '24:00' }]) });
    expect(open.body.organization).toMatchObject({ isOpenNow: true, closesAt: null, nextOpenAt: null });
    // Today and tomorrow (UTC) closed: it next opens at midnight the day after tomorrow.
    const closed = await client.patch('/v1/organization', { closedDates: [utcDate(0), utcDate(1)] });
    expect(closed.body.organization).toMatchObject({ isOpenNow: false, closesAt: null, nextOpenAt: `${utcDate(2)}T00:00:00.000Z` });
  });

  it('names the closing of its last opening when nothing opens after it, as a business closed for the season', async () => {
    const { client } = await api.organization();
    const weekdayOf = (offsetDays: number) => ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][new Date(`${utcDate(offsetDays)}T00:00:00Z`).getUTCDay()]!;
    // Open all of today and tomorrow (UTC), and closed on those weekdays from then on, for longer than the lookahead.
    const allDay = [{ open: '00:00', close: '24:00' }];
    const closedDates = Array.from({ length: 400 }, (_, i) => i + 2).filter((days) => days % 7 === 0 || days % 7 === 1).map(utcDate);
    const res = await client.patch('/v1/organization', { timezone: 'UTC', businessHours: { [weekdayOf(0)]: allDay, [weekdayOf(1)]: allDay }, closedDates });
    expect(res.status).toBe(200);
    expect(res.body.organization).toMatchObject({ isOpenNow: true, closesAt: `${utcDate(2)}T00:00:00.000Z`, nextOpenAt: null });
  });

  it('is closed with nothing to open when every day is left out, and unknown again once cleared with null', async () => {
    const { client } = await api.organization();
    expect((await client.patch('/v1/organization', { businessHours: {} })).body.organization).toMatchObject({ isOpenNow: false, nextOpenAt: null });
    expect((await client.patch('/v1/organization', { businessHours: null })).body.organization).toMatchObject({ businessHours: null, isOpenNow: null });
  });

  it.each([
    [{ businessHours: { monday: [{ open: '07:00', close: '25:00' }] } }, 'businessHours.monday.0.close'],
    [{ businessHours: { monday: [{ open: '7:00', close: '17:00' }] } }, 'businessHours.monday.0.open'],
    // A close is HH:MM or 24:00 and nothing more: the schedule reads its first five characters.
    [{ businessHours: { monday: [{ open: '07:00', close: '17:00:00' }] } }, 'businessHours.monday.0.close'],
    [{ businessHours: { monday: [{ open: '01:00', close: '05:00 PM' }] } }, 'businessHours.monday.0.close'],
    [{ businessHours: { monday: [{ open: '01:00', close: '23:59:59' }] } }, 'businessHours.monday.0.close'],
    [{ businessHours: { monday: [{ open: '17:00', close: '07:00' }] } }, 'businessHours.monday.0.close'],
    [{ businessHours: { monday: [{ open: '09:00', close: '09:00' }] } }, 'businessHours.monday.0.close'],
    [{ businessHours: { monday: [{ open: '07:00', close: '12:00' }, { open: '11:59', close: '17:00' }] } }, 'businessHours.monday'],
    [{ businessHours: { mondays: [{ open: '07:00', close: '17:00' }] } }, 'businessHours.mondays'],
    [{ businessHours: { monday: [{ open: '07:00', close: '17:00', note: 'x' }] } }, 'businessHours.monday.0.note'],
    // An array is no object of weekdays, even an empty one, which would read as closed all week.
    [{ businessHours: [] }, 'businessHours'],
    [{ businessHours: [[{ open: '07:00', close: '17:00' }]] }, 'businessHours'],
    [{ closedDates: ['2026-02-30'] }, 'closedDates.0'],
    [{ closedDates: ['2026-12-25', '2026-12-25'] }, 'closedDates'],
    [{ closedDates: ['25/12/2026'] }, 'closedDates.0'],
  ])('refuses %j with 400 naming %s, changing nothing', async (body, path) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect((await client.get('/v1/organization')).body.organization).toMatchObject({ businessHours: null, closedDates: [] });
  });

  it('takes periods that only meet (12:00 then 12:00) and a close at 24:00', async () => {
    const { client } = await api.organization();
    const hours = { friday: [{ open: '07:00', close: '12:00' }, { open: '12:00', close: '24:00' }] };
    expect((await client.patch('/v1/organization', { businessHours: hours })).status).toBe(200);
  });
});

describe('a PATCH of one day', () => {
  const weekdays = everyDay([{ open: '08:00', close: '17:00' }]);

  it('replaces the whole week: the days it leaves out are closed, as its description says', async () => {
    const { client } = await api.organization();
    await client.patch('/v1/organization', { businessHours: weekdays });
    const res = await client.patch('/v1/organization', { businessHours: { monday: [{ open: '09:00', close: '12:00' }] } });
    expect(res.status).toBe(200);
    expect(res.body.organization.businessHours).toEqual({ monday: [{ open: '09:00', close: '12:00' }] });
    expect((await client.get('/v1/organization')).body.organization.businessHours).toEqual({ monday: [{ open: '09:00', close: '12:00' }] });
    const document = (await api.anonymous.get('/openapi')).body;
    const operation = document.paths['/v1/organization'].patch;
    expect(operation.description).toContain('`businessHours` is the whole week, replaced rather than merged by day');
    const body = operation.requestBody.content['application/json'].schema;
    const schema = body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body;
    expect(JSON.stringify(schema.properties.businessHours)).toContain('replacing the one stored (days are not merged)');
  });

  it('replaces a member’s whole working week too', async () => {
    const { client } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member;
    await client.patch(`/v1/organization/members/${member.id}`, { workingHours: weekdays });
    const res = await client.patch(`/v1/organization/members/${member.id}`, { workingHours: { friday: [{ open: '10:00', close: '14:00' }] } });
    expect(res.body.member.workingHours).toEqual({ friday: [{ open: '10:00', close: '14:00' }] });
  });
});

describe('PATCH /v1/organization/members/{memberId} with workingHours', () => {
  it('stores the member’s own hours, null (the business’s) by default and again once cleared', async () => {
    const { client } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'tom@example.com', firstName: 'Tom', lastName: 'Walsh' })).body.member;
    expect(member.workingHours).toBeNull();
    const hours = { sunday: [{ open: '09:00', close: '15:00' }] };
    const res = await client.patch(`/v1/organization/members/${member.id}`, { workingHours: hours });
    expect(res.status).toBe(200);
    expect(res.body.member.workingHours).toEqual(hours);
    expect((await client.get(`/v1/organization/members/${member.id}`)).body.member.workingHours).toEqual(hours);
    expect((await client.patch(`/v1/organization/members/${member.id}`, { workingHours: null })).body.member.workingHours).toBeNull();
    const bad = await client.patch(`/v1/organization/members/${member.id}`, { workingHours: { sunday: [{ open: '15:00', close: '09:00' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((detail: { path: string }) => detail.path)).toContain('workingHours.sunday.0.close');
    const trailing = await client.patch(`/v1/organization/members/${member.id}`, { workingHours: { sunday: [{ open: '09:00', close: '15:00pm' }] } });
    expect([trailing.status, trailing.body.error.details.map((detail: { path: string }) => detail.path)]).toEqual([400, ['workingHours.sunday.0.close']]);
  });

  it('refuses workingHours: [] with 400 naming it, keeping the hours the member had', async () => {
    const { client } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'sam@example.com', firstName: 'Sam', lastName: 'Lee' })).body.member;
    const hours = { monday: [{ open: '07:00', close: '17:00' }] };
    expect((await client.patch(`/v1/organization/members/${member.id}`, { workingHours: hours })).status).toBe(200);
    const res = await client.patch(`/v1/organization/members/${member.id}`, { workingHours: [] });
    expect([res.status, res.body.error.details]).toEqual([400, [{ path: 'workingHours', message: 'hours must be an object of weekdays, not an array' }]]);
    expect((await client.get(`/v1/organization/members/${member.id}`)).body.member.workingHours).toEqual(hours);
  });
});

describe('hours stored when a close could carry more after its HH:MM', () => {
  // Such a close was taken once ('17:00:00', '05:00 PM'), and the schedule read its first five characters.
  it('read as the close the schedule always used, so the organization and its member still answer and can be changed', async () => {
    const { client, organizationId } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'old@example.com', firstName: 'Olly', lastName: 'Hours' })).body.member;
    const store = (key: { pk: string; sk: string }, field: string, hours: unknown) =>
      dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key, UpdateExpression: 'SET #hours = :hours', ExpressionAttributeNames: { '#hours': field }, ExpressionAttributeValues: { ':hours': hours } }));
    await store(organizationKeys.organization(organizationId), 'businessHours', { monday: [{ open: '07:00', close: '17:00:00' }] });
    await store(memberKeys.member(organizationId, member.id), 'workingHours', { sunday: [{ open: '09:00', close: '15:00pm' }] });
    const organization = await client.get('/v1/organization');
    expect([organization.status, organization.body.organization?.businessHours]).toEqual([200, { monday: [{ open: '07:00', close: '17:00' }] }]);
    const read = await client.get(`/v1/organization/members/${member.id}`);
    expect([read.status, read.body.member?.workingHours]).toEqual([200, { sunday: [{ open: '09:00', close: '15:00' }] }]);
    expect((await client.patch(`/v1/organization/members/${member.id}`, { position: 'Plumber' })).status).toBe(200);
    expect((await client.get('/v1/organization/members')).status).toBe(200);
  });
});

describe('the demo organization', () => {
  it('has business hours, holidays and an on-call member with hours of his own', async () => {
    const { client } = await api.demoOrganization();
    const organization = (await client.get('/v1/organization')).body.organization;
    expect(organization.businessHours.monday).toEqual([{ open: '07:00', close: '17:00' }]);
    expect(organization.closedDates).toContain('2026-12-25');
    const members = (await client.get('/v1/organization/members')).body.members;
    expect(members.filter((member: { workingHours: unknown }) => member.workingHours !== null).map((member: { lastName: string }) => member.lastName)).toEqual(['Walsh']);
  });
});

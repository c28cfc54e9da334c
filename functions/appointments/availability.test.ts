import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { appointmentKeys } from './entity';
import { holdKeys } from './hold-entity';
import { useTestApi, type Client } from '../../test/support/api';
import { measureDynamoCalls, roundTrips } from '../../test/support/dynamo-calls';
import { created, ISO_MS, query } from '../../test/support/fixtures';
import { holdFirstScheduleRead, holdWrite } from '../../test/support/interleave';

/** GET /v1/availability, POST /v1/availability/holds and booking a hold: finding a time for a caller and keeping it. */

const api = useTestApi({ events: true });
const HOLD_ID = /^hold_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Monday 4 January 2027 in Sydney (summer time, +11:00), and the day after. */
const MONDAY = '2027-01-04';
const at = (date: string, clock: string, offset = '+11:00') => new Date(`${date}T${clock}:00${offset}`).toISOString();

/**
 * A plumber in Sydney open 08:00–12:00 and 13:00–17:00 on weekdays, closed on Tuesday 5 January, with two members
 * (Kate before Dan by id), a lead and a one-hour service.
 */
async function plumber() {
  const org = await api.organization();
  const { client } = org;
  const day = [{ open: '08:00', close: '12:00' }, { open: '13:00', close: '17:00' }];
  await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: { monday: day, tuesday: day, wednesday: day }, closedDates: ['2027-01-05'] });
  const kate = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  const dan = await created(client, '/v1/organization/members', 'member', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' });
  const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
  const service = await created(client, '/v1/services', 'service', { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });
  const slots = async (params: Record<string, string | number> = {}) => {
    const res = await client.get(`/v1/availability?${query({ serviceId: service.id, from: at(MONDAY, '00:00'), to: at(MONDAY, '23:59'), ...params })}`);
    expect(res.status).toBe(200);
    return res.body.slots as { startsAt: string; endsAt: string; memberIds: number[] }[];
  };
  const hold = (body: Record<string, unknown>) => client.post('/v1/availability/holds', { serviceId: service.id, ...body });
  return { ...org, kate, dan, lead, service, slots, hold };
}

/** Each slot as Sydney's wall clock on the day, with its members: `09:15 [1,2]`. */
const sydney = (slots: { startsAt: string; memberIds: number[] }[]) =>
  slots.map(({ startsAt, memberIds }) => `${new Date(startsAt).toLocaleTimeString('en-AU', { timeZone: 'Australia/Sydney', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })} [${memberIds.join(',')}]`);

/** Every quarter hour from one wall-clock time to another, both included: `quarterHours('10:30', '11:00')`. */
function quarterHours(from: string, to: string): string[] {
  const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));
  const clocks: string[] = [];
  for (let minute = minutes(from); minute <= minutes(to); minute += 15) clocks.push(`${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`);
  return clocks;
}

describe('GET /v1/availability', () => {
  it('answers slots of the service’s length every 15 minutes inside business hours, each with the members free for it', async () => {
    const { kate, dan, slots, client, service } = await plumber();
    const res = await client.get(`/v1/availability?${query({ serviceId: service.id, from: at(MONDAY, '00:00'), to: at(MONDAY, '23:59') })}`);
    expect(res.body).toMatchObject({ timezone: 'Australia/Sydney', durationMinutes: 60, step: 15 });
    expect(res.body.slots[0]).toEqual({
      startsAt: '2027-01-03T21:00:00.000Z',
      endsAt: '2027-01-03T22:00:00.000Z',
      startsAtLocal: '2027-01-04T08:00:00+11:00',
      endsAtLocal: '2027-01-04T09:00:00+11:00',
      startsAtLabel: 'Mon 4 Jan, 8:00 am',
      memberIds: [kate.id, dan.id],
    });
    const both = `[${kate.id},${dan.id}]`;
    // 11:15 would run into the lunch break; 16:00 is the last start that ends by 17:00.
    expect(sydney(await slots())).toEqual([...quarterHours('08:00', '11:00'), ...quarterHours('13:00', '16:00')].map((clock) => `${clock} ${both}`));
  });

  it('leaves a member out of the slots a booked appointment overlaps and outside the member’s own working hours', async () => {
    const { client, kate, dan, lead, slots } = await plumber();
    await client.post('/v1/appointments', { leadId: lead.id, title: 'Hot water quote', startsAt: at(MONDAY, '09:00'), endsAt: at(MONDAY, '10:00'), attendees: [{ userId: kate.user.id }] });
    await client.patch(`/v1/organization/members/${dan.id}`, { workingHours: { monday: [{ open: '10:30', close: '15:00' }] } });
    const morning = sydney(await slots({ to: at(MONDAY, '12:00') }));
    // Kate's visit takes 08:15–09:45 starts from her; Dan starts at 10:30 and his hours end at 15:00.
    expect(morning).toEqual(['08:00', '10:00', '10:15'].map((clock) => `${clock} [${kate.id}]`).concat(['10:30', '10:45', '11:00'].map((clock) => `${clock} [${kate.id},${dan.id}]`)));
    expect(sydney(await slots({ memberId: dan.id }))).toEqual([...quarterHours('10:30', '11:00'), ...quarterHours('13:00', '14:00')].map((clock) => `${clock} [${dan.id}]`));
  });

  it('has no slots on a closed date, none for a disabled member, and takes another step', async () => {
    const { client, kate, dan, slots } = await plumber();
    expect(await slots({ from: at('2027-01-05', '00:00'), to: at('2027-01-06', '00:00') })).toEqual([]);
    await client.patch(`/v1/organization/members/${dan.id}`, { isDisabled: true });
    const hourly = sydney(await slots({ step: 60 }));
    expect(hourly).toEqual(['08:00', '09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00'].map((clock) => `${clock} [${kate.id}]`));
    expect(await slots({ memberId: dan.id })).toEqual([]);
  });

  it('counts hours by the wall clock across daylight saving changes', async () => {
    const { client, service } = await plumber();
    await client.patch('/v1/organization', { businessHours: { sunday: [{ open: '01:00', close: '04:00' }] } });
    const sunday = async (date: string, step: number) =>
      (await client.get(`/v1/availability?${query({ serviceId: service.id, from: `${date}T00:00:00+10:00`, to: `${date}T06:00:00+10:00`, step })}`)).body.slots.map((slot: { startsAt: string }) => slot.startsAt);
    // Clocks go forward at 02:00 on 3 October 2027: 01:00–04:00 is two hours long, and 02:00–03:00 never happens.
    expect(await sunday('2027-10-03', 30)).toEqual(['2027-10-02T15:00:00.000Z', '2027-10-02T15:30:00.000Z', '2027-10-02T16:00:00.000Z']);
    // Clocks go back at 03:00 on 4 April 2027: 01:00–04:00 is four hours long, and 02:00 happens twice.
    expect(await sunday('2027-04-04', 60)).toEqual(['2027-04-03T14:00:00.000Z', '2027-04-03T15:00:00.000Z', '2027-04-03T16:00:00.000Z', '2027-04-03T17:00:00.000Z']);
  });

  it('says each slot and hold in the organization’s timezone with the offset in force then, across daylight saving changes', async () => {
    const { client, service, hold } = await plumber();
    await client.patch('/v1/organization', { businessHours: { sunday: [{ open: '01:00', close: '04:00' }] } });
    const local = async (date: string, step: number) =>
      (await client.get(`/v1/availability?${query({ serviceId: service.id, from: `${date}T00:00:00+10:00`, to: `${date}T06:00:00+10:00`, step })}`)).body.slots.map(
        ({ startsAtLocal, endsAtLocal, startsAtLabel }: Record<string, string>) => `${startsAtLocal} ${endsAtLocal} ${startsAtLabel}`,
      );
    // Clocks go forward at 02:00 on 3 October 2027: a slot from 01:30 (+10:00) ends at 03:30 (+11:00).
    expect(await local('2027-10-03', 30)).toEqual([
      '2027-10-03T01:00:00+10:00 2027-10-03T03:00:00+11:00 Sun 3 Oct, 1:00 am',
      '2027-10-03T01:30:00+10:00 2027-10-03T03:30:00+11:00 Sun 3 Oct, 1:30 am',
      '2027-10-03T03:00:00+11:00 2027-10-03T04:00:00+11:00 Sun 3 Oct, 3:00 am',
    ]);
    // Clocks go back at 03:00 on 4 April 2027: 02:00 happens twice, told apart by its offset.
    expect(await local('2027-04-04', 60)).toEqual([
      '2027-04-04T01:00:00+11:00 2027-04-04T02:00:00+11:00 Sun 4 Apr, 1:00 am',
      '2027-04-04T02:00:00+11:00 2027-04-04T02:00:00+10:00 Sun 4 Apr, 2:00 am',
      '2027-04-04T02:00:00+10:00 2027-04-04T03:00:00+10:00 Sun 4 Apr, 2:00 am',
      '2027-04-04T03:00:00+10:00 2027-04-04T04:00:00+10:00 Sun 4 Apr, 3:00 am',
    ]);
    const held = await hold({ startsAt: '2027-10-03T01:30:00+10:00' });
    expect(held.status).toBe(201);
    expect(held.body.hold).toMatchObject({ startsAt: '2027-10-02T15:30:00.000Z', startsAtLocal: '2027-10-03T01:30:00+10:00', endsAtLocal: '2027-10-03T03:30:00+11:00', startsAtLabel: 'Sun 3 Oct, 1:30 am' });
  });

  it('never offers a slot in the past, and answers a window of at most 14 days', async () => {
    const { client, service, slots } = await plumber();
    expect(await slots({ from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' })).toEqual([]);
    const fourteenDays = await client.get(`/v1/availability?${query({ serviceId: service.id, from: at(MONDAY, '00:00'), to: at('2027-01-18', '00:00') })}`);
    expect(fourteenDays.status).toBe(200);
    // Two weeks of Mondays, Tuesdays and Wednesdays but the closed Tuesday: 5 open days of 26 slots.
    expect(fourteenDays.body.slots).toHaveLength(5 * 26);
    const longer = await client.get(`/v1/availability?${query({ serviceId: service.id, from: at(MONDAY, '00:00'), to: at('2027-01-18', '00:01') })}`);
    expect(longer.status).toBe(400);
    expect(longer.body.error.details).toEqual([{ path: 'to', message: 'to must be at most 14 days after from' }]);
    const backwards = await client.get(`/v1/availability?${query({ serviceId: service.id, from: at(MONDAY, '10:00'), to: at(MONDAY, '10:00') })}`);
    expect(backwards.body.error.details).toEqual([{ path: 'to', message: 'to must be after from' }]);
  });

  it('answers 404 for a service or member the organization does not have', async () => {
    const { client, service } = await plumber();
    const other = await plumber();
    expect((await client.get(`/v1/availability?serviceId=${service.id + 1000}`)).body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Service not found' });
    expect((await client.get(`/v1/availability?serviceId=${service.id}&memberId=999`)).body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Member not found' });
    // Integer ids are per organization: the other organization's service id is only ever its own service.
    expect((await other.client.get(`/v1/availability?serviceId=${other.service.id}`)).status).toBe(200);
  });

  it('reads in two round trips: the organization, service and members, then the working members’ bookings', async () => {
    const { slots } = await plumber();
    const calls = await measureDynamoCalls(() => slots());
    const rounds = roundTrips(calls);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]).toEqual(['QueryCommand', 'QueryCommand']);
  });
});

describe('POST /v1/availability/holds', () => {
  it('holds the slot for five minutes with the first free member, and the slot leaves that member’s availability', async () => {
    const { hold, kate, dan, lead, service, slots } = await plumber();
    const res = await hold({ startsAt: at(MONDAY, '09:00'), leadId: lead.id });
    expect(res.status).toBe(201);
    const { hold: held } = res.body;
    expect(held).toEqual({
      id: expect.stringMatching(HOLD_ID),
      serviceId: service.id,
      startsAt: at(MONDAY, '09:00'),
      endsAt: at(MONDAY, '10:00'),
      startsAtLocal: '2027-01-04T09:00:00+11:00',
      endsAtLocal: '2027-01-04T10:00:00+11:00',
      startsAtLabel: 'Mon 4 Jan, 9:00 am',
      memberId: kate.id,
      leadId: lead.id,
      expiresAt: expect.stringMatching(ISO_MS),
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(held.expiresAt) - Date.parse(held.createdAt)).toBe(5 * 60_000);
    const around = sydney(await slots({ from: at(MONDAY, '08:00'), to: at(MONDAY, '10:15') }));
    expect(around).toEqual([`08:00 [${kate.id},${dan.id}]`, ...['08:15', '08:30', '08:45', '09:00', '09:15', '09:30', '09:45'].map((clock) => `${clock} [${dan.id}]`), `10:00 [${kate.id},${dan.id}]`]);
    // The same slot again takes the other member, then none is left.
    expect((await hold({ startsAt: at(MONDAY, '09:00') })).body.hold.memberId).toBe(dan.id);
    const taken = await hold({ startsAt: at(MONDAY, '09:30') });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'SLOT_TAKEN' });
  });

  it('of two holds of one slot sent together, creates one and answers the other 409 SLOT_TAKEN', async () => {
    const { hold, kate, slots } = await plumber();
    const release = holdFirstScheduleRead();
    try {
      const answers = await Promise.all([hold({ startsAt: at(MONDAY, '14:00'), memberId: kate.id }), hold({ startsAt: at(MONDAY, '14:00'), memberId: kate.id })]);
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
      expect(answers.find((res) => res.status === 409)!.body.error.code).toBe('SLOT_TAKEN');
    } finally {
      release();
    }
    expect(sydney(await slots({ from: at(MONDAY, '14:00'), to: at(MONDAY, '14:01'), memberId: kate.id }))).toEqual([]);
  });

  it('refuses a second hold of one member’s time that overlaps the first from another start, and takes one that only meets it', async () => {
    const { hold, kate } = await plumber();
    expect((await hold({ startsAt: at(MONDAY, '09:00'), memberId: kate.id })).status).toBe(201);
    // The same start, one starting inside it, one running into it: each overlaps 09:00–10:00.
    for (const clock of ['09:00', '09:45', '08:15']) {
      const res = await hold({ startsAt: at(MONDAY, clock), memberId: kate.id });
      expect([res.status, res.body.error?.code], clock).toEqual([409, 'SLOT_TAKEN']);
    }
    // Back to back on either side is no overlap.
    for (const clock of ['08:00', '10:00']) expect((await hold({ startsAt: at(MONDAY, clock), memberId: kate.id })).status, clock).toBe(201);
  });

  it('refuses a hold whose read of the member’s schedule went stale: another overlapping hold committed between its read and its write', async () => {
    const { hold, kate, slots } = await plumber();
    // The 09:30 hold has read Kate's schedule, empty, and waits before its write while a 09:00 hold of her commits.
    const late = holdWrite(new RegExp(at(MONDAY, '09:30').replace(/[.]/g, '\\.')));
    const waiting = hold({ startsAt: at(MONDAY, '09:30'), memberId: kate.id });
    await late.reached;
    expect((await hold({ startsAt: at(MONDAY, '09:00'), memberId: kate.id })).status).toBe(201);
    late.release();
    const res = await waiting;
    // Its schedule claim fails on the version the 09:00 hold moved; read again, the schedule shows that hold.
    expect([res.status, res.body.error?.code]).toEqual([409, 'SLOT_TAKEN']);
    expect(sydney(await slots({ from: at(MONDAY, '08:00'), to: at(MONDAY, '10:01'), memberId: kate.id }))).toEqual([`08:00 [${kate.id}]`, `10:00 [${kate.id}]`]);
  });

  it('answers 409 SLOT_UNAVAILABLE for a time no member works: over lunch, on a closed date, in the past', async () => {
    const { hold, dan } = await plumber();
    for (const startsAt of [at(MONDAY, '11:30'), at('2027-01-05', '09:00'), at(MONDAY, '07:30'), '2026-01-05T09:00:00+11:00']) {
      const res = await hold({ startsAt });
      expect(res.status, startsAt).toBe(409);
      expect(res.body.error.code, startsAt).toBe('SLOT_UNAVAILABLE');
    }
    expect((await hold({ startsAt: at(MONDAY, '09:00'), memberId: dan.id })).status).toBe(201);
  });

  it('answers 404 for another organization’s service or lead, and 400 naming a bad field', async () => {
    const { hold, lead } = await plumber();
    const other = await plumber();
    const foreignLead = await other.hold({ startsAt: at(MONDAY, '09:00'), leadId: lead.id });
    expect(foreignLead.status).toBe(404);
    expect(foreignLead.body.error.message).toBe('Lead not found');
    expect((await hold({ startsAt: 'monday 9am' })).body.error.details).toEqual([{ path: 'startsAt', message: 'startsAt must be an ISO 8601 date-time with an offset, e.g. 2026-12-01T09:00:00+11:00' }]);
    expect((await hold({ startsAt: at(MONDAY, '09:00'), memberId: 'kate' })).body.error.details).toEqual([{ path: 'memberId', message: 'memberId must be an integer' }]);
  });
});

describe('POST /v1/appointments with holdId', () => {
  it('books the held slot with its member, titled after the service, and ends the hold', async () => {
    const { client, hold, kate, lead, slots } = await plumber();
    const held = (await hold({ startsAt: at(MONDAY, '13:00'), memberId: kate.id })).body.hold;
    const res = await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id, location: '14 Church St' });
    expect(res.status).toBe(201);
    expect(res.body.appointment).toMatchObject({ leadId: lead.id, title: 'Blocked drain clearing', startsAt: held.startsAt, endsAt: held.endsAt, timezone: 'Australia/Sydney', location: '14 Church St', attendees: [{ userId: kate.user.id }], status: 'BOOKED' });
    // The appointment now takes Kate's time, whatever happens to the hold.
    expect(sydney(await slots({ from: at(MONDAY, '13:00'), to: at(MONDAY, '13:01'), memberId: kate.id }))).toEqual([]);
    const again = await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'HOLD_EXPIRED', message: `The hold was booked already, as appointment ${res.body.appointment.id}` });
    const activities = (await client.get(`/v1/leads/${lead.id}/activities`)).body.activities;
    expect(activities[0]).toMatchObject({ event: 'APPOINTMENT_BOOKED', referenceId: res.body.appointment.id });
  });

  it('answers 409 HOLD_EXPIRED once the hold has expired, and the slot is free again', async () => {
    const { client, organizationId, hold, kate, lead, slots } = await plumber();
    const held = (await hold({ startsAt: at(MONDAY, '15:00'), memberId: kate.id })).body.hold;
    // Five minutes pass: the hold's expiry, on the hold and on the member's schedule, moves to a minute ago.
    const past = new Date(Date.now() - 60_000).toISOString();
    for (const Key of [holdKeys.hold(organizationId, held.id), appointmentKeys.booking(organizationId, kate.user.id, held.startsAt, held.id)]) {
      await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key, UpdateExpression: 'SET expiresAt = :past', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':past': past } }));
    }
    const res = await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'HOLD_EXPIRED', message: `The hold expired at ${past}; hold a slot again` });
    expect(sydney(await slots({ from: at(MONDAY, '15:00'), to: at(MONDAY, '15:01'), memberId: kate.id }))).toEqual([`15:00 [${kate.id}]`]);
    expect((await hold({ startsAt: at(MONDAY, '15:00'), memberId: kate.id })).status).toBe(201);
  });

  it('refuses another lead than the hold’s, times beside a hold, a booking without times, and another organization’s hold', async () => {
    const { client, hold, lead } = await plumber();
    const other = await plumber();
    const held = (await hold({ startsAt: at(MONDAY, '10:00'), leadId: lead.id })).body.hold;
    const otherLead = await created(client, '/v1/leads', 'lead', { name: 'Sam Lee', phone: '+61412345002' });
    const wrongLead = await client.post('/v1/appointments', { leadId: otherLead.id, holdId: held.id });
    expect(wrongLead.body.error.details).toEqual([{ path: 'leadId', message: `leadId must be the lead the hold was made for, ${lead.id}` }]);
    const withTimes = await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id, startsAt: at(MONDAY, '11:00') });
    expect(withTimes.body.error.details).toEqual([{ path: 'startsAt', message: 'startsAt comes from the hold: send holdId or startsAt, not both' }]);
    const noTimes = await client.post('/v1/appointments', { leadId: lead.id, title: 'Quote' });
    expect(noTimes.status).toBe(400);
    expect(noTimes.body.error.details[0]).toEqual({ path: 'startsAt', message: 'startsAt is required unless holdId is given' });
    const foreign = await other.client.post('/v1/appointments', { leadId: other.lead.id, holdId: held.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('Hold not found');
    // None of those refusals ended the hold.
    expect((await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id })).status).toBe(201);
  });

  it('records hold.created and appointment.created', async () => {
    const { client, hold, lead } = await plumber();
    const held = (await hold({ startsAt: at(MONDAY, '16:00'), leadId: lead.id })).body.hold;
    const appointment = (await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id })).body.appointment;
    await api.eventsCaughtUp();
    const holds = (await client.get('/v1/events?type=hold.created')).body.events;
    expect(holds.map((event: { data: unknown }) => event.data)).toEqual([held]);
    const appointments = (await client.get('/v1/events?type=appointment.created')).body.events;
    expect(appointments.map((event: { data: unknown }) => event.data)).toEqual([appointment]);
  });
});

describe('times near the end of what the service reasons about', () => {
  it('answers 400 naming from or startsAt for a time in the year 9999, and offers only slots that end before it', async () => {
    const { client, service, hold } = await plumber();
    const late = await client.get(`/v1/availability?${query({ serviceId: service.id, from: '9999-12-20T00:00:00Z', to: '9999-12-31T23:59:00Z' })}`);
    expect(late.status).toBe(400);
    expect(late.body.error.details).toEqual([
      { path: 'from', message: 'from must be before 9999-01-01T00:00:00.000Z' },
      { path: 'to', message: 'to must be before 9999-01-01T00:00:00.000Z' },
    ]);
    // Friday 1 January 9999 opens at 08:00 in Sydney, 21:00 UTC the day before: three hours before the last instant.
    const day = [{ open: '08:00', close: '12:00' }, { open: '13:00', close: '17:00' }];
    await client.patch('/v1/organization', { businessHours: { monday: day, tuesday: day, wednesday: day, friday: day } });
    // Its default 7 days would run into the year 9999: the window answers the slots that end before it, and no later one.
    const last = await client.get(`/v1/availability?${query({ serviceId: service.id, from: '9998-12-31T21:00:00Z' })}`);
    expect(last.status).toBe(200);
    const starts = ['21:00', '21:15', '21:30', '21:45', '22:00', '22:15', '22:30', '22:45'].map((time) => `9998-12-31T${time}:00.000Z`);
    expect(last.body.slots.map((slot: { startsAt: string }) => slot.startsAt)).toEqual(starts);
    expect(last.body.slots.at(-1).endsAt).toBe('9998-12-31T23:45:00.000Z');
    // Each slot offered can be held; one starting a quarter later would end in the year 9999.
    expect((await hold({ startsAt: '9998-12-31T22:45:00Z' })).status).toBe(201);
    const over = await hold({ startsAt: '9998-12-31T23:00:00Z' });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([{ path: 'startsAt', message: 'startsAt plus the service’s 60 minutes must end before 9999-01-01T00:00:00.000Z' }]);
    const held = await hold({ startsAt: '9999-12-31T20:00:00Z' });
    expect(held.status).toBe(400);
    expect(held.body.error.details).toEqual([{ path: 'startsAt', message: 'startsAt must be before 9999-01-01T00:00:00.000Z' }]);
  });
});

describe('a service longer than an appointment may last', () => {
  it('has no slots and no holds: 400 naming serviceId, as an appointment lasts at most 7 days', async () => {
    const { client } = await plumber();
    const renovation = await created(client, '/v1/services', 'service', { name: 'Bathroom renovation', description: 'A long job', followUpQuestions: [], duration: 8, durationUnit: 'DAYS', tradeCategoryId: 1, pricingType: 'NONE' });
    const refusal = [{ path: 'serviceId', message: 'serviceId names a service of 8 days: an appointment lasts at most 7 days, so it has no slots' }];
    const slots = await client.get(`/v1/availability?${query({ serviceId: renovation.id })}`);
    expect([slots.status, slots.body.error.details]).toEqual([400, refusal]);
    const held = await client.post('/v1/availability/holds', { serviceId: renovation.id, startsAt: at(MONDAY, '08:00') });
    expect([held.status, held.body.error.details]).toEqual([400, refusal]);
    // Seven days is the most an appointment lasts: such a service still has its slots (none fit these hours).
    const week = await created(client, '/v1/services', 'service', { name: 'Week-long job', description: 'Seven days', followUpQuestions: [], duration: 7, durationUnit: 'DAYS', tradeCategoryId: 1, pricingType: 'NONE' });
    expect((await client.get(`/v1/availability?${query({ serviceId: week.id })}`)).status).toBe(200);
  });
});

describe('a working period that began more than a day before the window asked for', () => {
  it('anchors its slots where it began, whatever from is asked', async () => {
    const { client } = await api.organization();
    // Open from Friday 17:30 through the weekend to Sunday 08:00 (UTC): one working period, its hourly slots on the half hour.
    await client.patch('/v1/organization', { timezone: 'Etc/UTC', businessHours: { friday: [{ open: '17:30', close: '24:00' }], saturday: [{ open: '00:00', close: '24:00' }], sunday: [{ open: '00:00', close: '08:00' }] } });
    await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const service = await created(client, '/v1/services', 'service', { name: 'Inspection', description: 'An hour', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });
    const sunday = async (from: string) =>
      ((await client.get(`/v1/availability?${query({ serviceId: service.id, from, to: '2027-02-07T08:00:00Z', step: 60 })}`)).body.slots as { startsAt: string }[])
        .map((slot) => slot.startsAt)
        .filter((startsAt) => startsAt >= '2027-02-07T02:00:00.000Z');
    const halfHours = ['02:30', '03:30', '04:30', '05:30', '06:30'].map((clock) => `2027-02-07T${clock}:00.000Z`);
    expect(await sunday('2027-02-05T00:00:00Z')).toEqual(halfHours);
    expect(await sunday('2027-02-07T02:00:00Z')).toEqual(halfHours);
  });
});

describe('an organization not set up for bookings', () => {
  it('says why there are no slots: no business hours and no member hours, then no member to take the service; null once slots can exist', async () => {
    const { client } = await api.organization();
    const service = await created(client, '/v1/services', 'service', { name: 'Tap repair', description: 'An hour', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });
    const availability = async () => (await client.get(`/v1/availability?${query({ serviceId: service.id, from: at(MONDAY, '00:00'), to: at(MONDAY, '23:59') })}`)).body;
    const noticeOf = async () => {
      const { slots, notice } = await availability();
      return { slots: slots.length, code: notice?.code ?? null, says: notice?.message.includes('PATCH /v1/organization') ?? null };
    };
    // New: no hours at all, whether or not it has members yet.
    expect(await noticeOf()).toEqual({ slots: 0, code: 'NO_BUSINESS_HOURS', says: true });
    const kate = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    expect(await noticeOf()).toEqual({ slots: 0, code: 'NO_BUSINESS_HOURS', says: true });
    // A member's own hours are hours: no notice, and her slots.
    await client.patch(`/v1/organization/members/${kate.id}`, { workingHours: { monday: [{ open: '09:00', close: '12:00' }] } });
    expect((await noticeOf()).code).toBeNull();
    await client.patch(`/v1/organization/members/${kate.id}`, { workingHours: null });
    expect((await noticeOf()).code).toBe('NO_BUSINESS_HOURS');
    // Business hours set: slots, and no notice.
    await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: { monday: [{ open: '09:00', close: '12:00' }] } });
    expect(await noticeOf()).toEqual({ slots: 9, code: null, says: null });
    // Hours set but closed that day, or booked out, is no missing set-up: no slots, no notice.
    await client.patch('/v1/organization', { businessHours: { tuesday: [{ open: '09:00', close: '12:00' }] } });
    expect(await noticeOf()).toEqual({ slots: 0, code: null, says: null });
    // No member left to take it.
    await client.patch(`/v1/organization/members/${kate.id}`, { isDisabled: true });
    const { notice } = await availability();
    expect(notice).toEqual({ code: 'NO_MEMBERS', message: expect.stringContaining('no member takes the service') });
  });
});

describe('a member’s own hours in an organization without business hours', () => {
  it('still keep the organization’s closed dates: no slots that day, and a hold on it refused', async () => {
    const { client } = await api.organization();
    await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: null, closedDates: ['2027-01-05'] });
    const kate = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const day = [{ open: '09:00', close: '12:00' }];
    await client.patch(`/v1/organization/members/${kate.id}`, { workingHours: { monday: day, tuesday: day } });
    const service = await created(client, '/v1/services', 'service', { name: 'Gas heater service', description: 'An hour', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });
    const slots = async (date: string) =>
      sydney((await client.get(`/v1/availability?${query({ serviceId: service.id, from: at(date, '00:00'), to: at(date, '23:59'), step: 60 })}`)).body.slots);
    // Her Monday is open by her own hours alone; her Tuesday is the organization's closed date.
    expect(await slots(MONDAY)).toEqual(['09:00', '10:00', '11:00'].map((clock) => `${clock} [${kate.id}]`));
    expect(await slots('2027-01-05')).toEqual([]);
    const closed = await client.post('/v1/availability/holds', { serviceId: service.id, startsAt: at('2027-01-05', '09:00') });
    expect([closed.status, closed.body.error.code]).toEqual([409, 'SLOT_UNAVAILABLE']);
    expect((await client.post('/v1/availability/holds', { serviceId: service.id, startsAt: at(MONDAY, '09:00') })).status).toBe(201);
  });
});

describe('a service with memberIds', () => {
  it('offers only its members, refuses a hold of another, and offers every member again once memberIds is emptied', async () => {
    const { client, service, kate, dan, slots, hold } = await plumber();
    const everyone = await slots();
    const assigned = await client.patch(`/v1/services/${service.id}`, { memberIds: [dan.id] });
    expect(assigned.status).toBe(200);
    expect(assigned.body.service.memberIds).toEqual([dan.id]);
    // Exactly the slots Dan was free for, each offering Dan alone.
    const dansSlots = everyone.filter((slot) => slot.memberIds.includes(dan.id)).map((slot) => ({ ...slot, memberIds: [dan.id] }));
    expect(dansSlots.map((slot) => slot.startsAt)).toContain(at(MONDAY, '09:00'));
    expect(await slots()).toEqual(dansSlots);
    const asked = await client.get(`/v1/availability?${query({ serviceId: service.id, memberId: kate.id })}`);
    expect(asked.status).toBe(400);
    expect(asked.body.error.details).toEqual([{ path: 'memberId', message: `memberId ${kate.id} is not one of the service's memberIds` }]);
    // Kate is free at 09:00 but does not take the service: the first free member is Dan, and a hold of Kate is refused.
    const refused = await hold({ startsAt: at(MONDAY, '09:00'), memberId: kate.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('memberId');
    expect((await hold({ startsAt: at(MONDAY, '09:00') })).body.hold.memberId).toBe(dan.id);
    const none = await hold({ startsAt: at(MONDAY, '09:00') });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('SLOT_TAKEN');
    expect((await client.patch(`/v1/services/${service.id}`, { memberIds: [] })).status).toBe(200);
    expect(new Set((await slots()).flatMap((slot) => slot.memberIds))).toEqual(new Set([kate.id, dan.id]));
  });
});

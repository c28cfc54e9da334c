import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { created, itemsOf, query } from '../../test/support/fixtures';
import { TTL_ATTRIBUTE } from '#shared/table';

/**
 * The receptionist's run-time API as a voice agent on a live call uses it: free slots, holds, bookings and their
 * changes, across daylight-saving changes, concurrent requests and input a client gets wrong.
 */

const api = useTestApi();

type Hours = Record<string, { open: string; close: string }[]>;

/** An organization in `timezone` open `hours`, with `members` members (by id ascending), a lead and a service. */
async function business(timezone: string, hours: Hours, { members = 1, duration = 1, durationUnit = 'HOURS', closedDates = [] as string[] } = {}) {
  const org = await api.organization();
  const { client } = org;
  const patched = await client.patch('/v1/organization', { timezone, businessHours: hours, closedDates });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const staff = [];
  for (let i = 0; i < members; i++) staff.push(await created(client, '/v1/organization/members', 'member', { email: `tech${i}@example.com`, firstName: `Tech${i}`, lastName: 'Ng' }));
  const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
  const service = await created(client, '/v1/services', 'service', { name: 'Drain inspection', description: 'A visit', followUpQuestions: [], duration, durationUnit, tradeCategoryId: 1, pricingType: 'NONE' });
  const slots = async (params: Record<string, string | number>) => {
    const res = await client.get(`/v1/availability?${query({ serviceId: service.id, ...params })}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.slots as { startsAt: string }[]).map((slot) => slot.startsAt);
  };
  const hold = (body: Record<string, unknown>) => client.post('/v1/availability/holds', { serviceId: service.id, ...body });
  return { ...org, staff, lead, service, slots, hold };
}

describe('times a client sends', () => {
  it('answers 400 naming the field, never 500, for a time whose offset has no minutes or is set off by a space', async () => {
    const { client, service, lead, hold } = await business('Etc/UTC', { monday: [{ open: '09:00', close: '17:00' }] });
    const appointment = (await client.post('/v1/appointments', { leadId: lead.id, title: 'Quote', startsAt: '2027-02-01T09:00:00Z', endsAt: '2027-02-01T10:00:00Z' })).body.appointment;
    // Not RFC 3339 date-times (the document's format): an offset must be ±hh:mm, written right after the time.
    for (const time of ['2027-02-01T10:00:00+10', '2027-02-01T10:00:00-05', '2027-02-01T10:00:00 +10:00', '2027-02-01T10:00:00,5Z']) {
      const answers = {
        hold: await hold({ startsAt: time }),
        availability: await client.get(`/v1/availability?${query({ serviceId: service.id, from: time })}`),
        book: await client.post('/v1/appointments', { leadId: lead.id, title: 'Quote', startsAt: time, endsAt: '2027-02-01T12:00:00Z' }),
        reschedule: await client.patch(`/v1/appointments/${appointment.id}`, { startsAt: time }),
        list: await client.get(`/v1/appointments?${query({ from: time })}`),
        sync: await client.get(`/v1/appointments?${query({ updatedSince: time })}`),
      };
      const seen = Object.entries(answers).map(([call, res]) => [call, res.status, res.body.error?.details?.[0]?.path]);
      expect([time, seen]).toEqual([
        time,
        [
          ['hold', 400, 'startsAt'],
          ['availability', 400, 'from'],
          ['book', 400, 'startsAt'],
          ['reschedule', 400, 'startsAt'],
          ['list', 400, 'from'],
          ['sync', 400, 'updatedSince'],
        ],
      ]);
    }
  });
});

describe('slots across a daylight-saving change', () => {
  it('offers a slot just after midnight following the spring-forward day whatever the window starts at, as a hold of it succeeds', async () => {
    // Sydney's clocks go forward on Sunday 3 October 2027, so that day is 23 hours long. Open Mondays 00:00–01:00.
    const { slots, hold } = await business('Australia/Sydney', { monday: [{ open: '00:00', close: '01:00' }] }, { duration: 15, durationUnit: 'MINUTES' });
    const mondayStarts = ['2027-10-03T13:00:00.000Z', '2027-10-03T13:15:00.000Z', '2027-10-03T13:30:00.000Z'];
    const to = '2027-10-04T00:44:00+11:00';
    expect(await slots({ from: '2027-10-02T20:00:00+10:00', to })).toEqual(mondayStarts);
    // The same window, from a later start on Saturday evening: Monday's slots must not vanish.
    expect(await slots({ from: '2027-10-02T23:59:00+10:00', to })).toEqual(mondayStarts);
    expect((await hold({ startsAt: '2027-10-04T00:00:00+11:00' })).status).toBe(201);
  });

  it('holds by real time in the hour the clocks repeat or skip, and refuses a slot running past close', async () => {
    // Open Sundays 01:00–04:00: four real hours on 4 April 2027 (02:00–03:00 happens twice), two on 3 October 2027.
    const { hold } = await business('Australia/Sydney', { sunday: [{ open: '01:00', close: '04:00' }] });
    const answers = [];
    for (const startsAt of ['2027-04-04T02:00:00+11:00', '2027-04-04T02:00:00+10:00', '2027-04-04T03:00:00+10:00', '2027-04-04T03:01:00+10:00', '2027-10-03T01:00:00+10:00', '2027-10-03T03:00:00+11:00', '2027-10-03T03:00:01+11:00']) {
      const res = await hold({ startsAt });
      answers.push([startsAt, res.status, res.body.error?.code ?? null]);
    }
    expect(answers).toEqual([
      ['2027-04-04T02:00:00+11:00', 201, null],
      ['2027-04-04T02:00:00+10:00', 201, null],
      ['2027-04-04T03:00:00+10:00', 201, null],
      ['2027-04-04T03:01:00+10:00', 409, 'SLOT_UNAVAILABLE'],
      ['2027-10-03T01:00:00+10:00', 201, null],
      ['2027-10-03T03:00:00+11:00', 201, null],
      ['2027-10-03T03:00:01+11:00', 409, 'SLOT_UNAVAILABLE'],
    ]);
  });
});

describe('a night shift that runs into a closed date', () => {
  it('ends at midnight: no slot or hold runs into the closed day', async () => {
    const { slots, hold } = await business('Australia/Sydney', { friday: [{ open: '17:00', close: '24:00' }], saturday: [{ open: '00:00', close: '08:00' }] }, { closedDates: ['2027-02-06'] });
    const friday = await slots({ from: '2027-02-05T22:00:00+11:00', to: '2027-02-06T08:00:00+11:00', step: 30 });
    expect(friday).toEqual(['2027-02-05T11:00:00.000Z', '2027-02-05T11:30:00.000Z', '2027-02-05T12:00:00.000Z']);
    const late = await hold({ startsAt: '2027-02-05T23:30:00+11:00' });
    expect([late.status, late.body.error?.code]).toEqual([409, 'SLOT_UNAVAILABLE']);
  });
});

describe('concurrent requests for one slot', () => {
  it('of five holds without a member sent together, holds each of the two members once and answers the rest SLOT_TAKEN', async () => {
    const { hold, staff } = await business('Etc/UTC', { monday: [{ open: '09:00', close: '17:00' }] }, { members: 2 });
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => hold({ startsAt: '2027-02-01T10:00:00Z' })));
    expect(answers.filter((res) => res.status === 201).map((res) => res.body.hold.memberId).sort()).toEqual(staff.map((member: { id: number }) => member.id));
    expect(answers.filter((res) => res.status !== 201).map((res) => [res.status, res.body.error.code])).toEqual([
      [409, 'SLOT_TAKEN'],
      [409, 'SLOT_TAKEN'],
      [409, 'SLOT_TAKEN'],
    ]);
  });

  it('of a hold and an overlapping booking of one member sent together, keeps exactly one', async () => {
    const { client, hold, staff, lead } = await business('Etc/UTC', { monday: [{ open: '09:00', close: '17:00' }] });
    const [member] = staff;
    const answers = await Promise.all([
      hold({ startsAt: '2027-02-01T13:00:00Z', memberId: member.id }),
      client.post('/v1/appointments', { leadId: lead.id, title: 'Quote', startsAt: '2027-02-01T13:30:00Z', endsAt: '2027-02-01T14:30:00Z', attendees: [{ userId: member.user.id }] }),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
  });
});

describe('caller lookup in North America', () => {
  it('finds the caller from the national forms people and platforms use in an America/New_York organization of country US', async () => {
    const { client } = await api.organization();
    expect((await client.patch('/v1/organization', { timezone: 'America/New_York', country: 'US' })).status).toBe(200);
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Sam Lee', phone: '+14155552671' });
    for (const typed of ['(415) 555-2671', '415.555.2671', '1-415-555-2671', '4155552671', '+1 (415) 555-2671']) {
      const res = await client.get(`/v1/callers/${encodeURIComponent(typed)}`);
      expect([typed, res.status, res.body.caller?.lead?.id]).toEqual([typed, 200, lead.id]);
    }
  });
});

describe('what a hold leaves on the schedule', () => {
  it('goes by itself a day after the hold expires, as the hold’s record does, while a booked appointment’s time stays', async () => {
    const { client, hold, lead, staff, organizationId } = await business('Etc/UTC', { monday: [{ open: '09:00', close: '17:00' }] });
    const held = (await hold({ startsAt: '2027-02-01T10:00:00Z' })).body.hold;
    const booked = (await client.post('/v1/appointments', { leadId: lead.id, title: 'Quote', startsAt: '2027-02-01T13:00:00Z', endsAt: '2027-02-01T14:00:00Z', attendees: [{ userId: staff[0].user.id }] })).body.appointment;
    const items = (await itemsOf(organizationId)).map((text) => JSON.parse(text) as Record<string, unknown>);
    const removeAt = Math.floor(Date.parse(held.expiresAt) / 1000) + 86_400;
    expect(items.find((item) => item.entity === 'HOLD')?.[TTL_ATTRIBUTE]).toBe(removeAt);
    const bookings = items.filter((item) => item.entity === 'BOOKING');
    expect(bookings.find((item) => item.holdId === held.id)?.[TTL_ATTRIBUTE]).toBe(removeAt);
    const appointmentTime = bookings.find((item) => item.appointmentId === booked.id);
    expect(appointmentTime).toMatchObject({ appointmentId: booked.id, startsAt: '2027-02-01T13:00:00.000Z', endsAt: '2027-02-01T14:00:00.000Z' });
    expect(appointmentTime).not.toHaveProperty(TTL_ATTRIBUTE);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { created, ISO_MS } from '../../test/support/fixtures';
import { holdFirstScheduleRead } from '../../test/support/interleave';

const api = useTestApi();
const APPOINTMENT_ID = /^appointment_[0-9A-HJKMNP-TV-Z]{26}$/;

/** An organization with one lead and two members, and a booking body for them. */
async function booked() {
  const org = await api.organization();
  const lead = await created(org.client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', email: 'olivia@example.com', phone: '+61412345001' });
  const kate = await created(org.client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  const dan = await created(org.client, '/v1/organization/members', 'member', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' });
  const body = (startsAt: string, endsAt: string, attendees = [kate.user.id]) => ({
    leadId: lead.id,
    title: 'Blocked drain inspection',
    startsAt,
    endsAt,
    attendees: attendees.map((userId: string) => ({ userId })),
  });
  return { ...org, lead, kate, dan, body };
}

const book = (client: Client, body: unknown) => client.post('/v1/appointments', body);

describe('POST /v1/appointments', () => {
  it('books it in UTC with the organization’s time zone, and records APPOINTMENT_BOOKED on the lead', async () => {
    const { client, lead, kate, body } = await booked();
    await client.patch('/v1/organization', { timezone: 'Australia/Sydney' });
    const res = await book(client, { ...body('2026-12-01T09:00:00+11:00', '2026-12-01T10:00:00+11:00'), location: '14 Church St', notes: 'Side gate' });
    expect(res.status).toBe(201);
    const appointment = res.body.appointment;
    expect(appointment).toEqual({
      id: expect.stringMatching(APPOINTMENT_ID),
      leadId: lead.id,
      title: 'Blocked drain inspection',
      startsAt: '2026-11-30T22:00:00.000Z',
      endsAt: '2026-11-30T23:00:00.000Z',
      timezone: 'Australia/Sydney',
      location: '14 Church St',
      attendees: [{ userId: kate.user.id }],
      notes: 'Side gate',
      status: 'BOOKED',
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: appointment.createdAt,
    });
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body).toEqual({ appointment });
    const activities = (await client.get(`/v1/leads/${lead.id}/activities`)).body;
    expect(activities.totalCount).toBe(2);
    expect(activities.activities[0]).toMatchObject({ event: 'APPOINTMENT_BOOKED', referenceId: appointment.id, leadId: lead.id });
  });

  it('refuses an attendee booked at an overlapping time (409), and allows back-to-back and other members', async () => {
    const { client, dan, body } = await booked();
    expect((await book(client, body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'))).status).toBe(201);
    const clash = await book(client, body('2026-12-01T09:30:00Z', '2026-12-01T10:30:00Z'));
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('CONFLICT');
    expect(clash.body.message).toMatch(/is already booked from 2026-12-01T09:00:00.000Z to 2026-12-01T10:00:00.000Z/);
    expect((await book(client, body('2026-12-01T10:00:00Z', '2026-12-01T11:00:00Z'))).status).toBe(201);
    expect((await book(client, body('2026-12-01T08:00:00Z', '2026-12-01T09:00:00Z'))).status).toBe(201);
    expect((await book(client, body('2026-12-01T09:15:00Z', '2026-12-01T09:45:00Z', [dan.user.id]))).status).toBe(201);
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(4);
  });

  it('books exactly one of two concurrent overlapping bookings of one attendee', async () => {
    const { client, body } = await booked();
    const results = await Promise.all([book(client, body('2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z')), book(client, body('2026-12-02T09:30:00Z', '2026-12-02T11:00:00Z'))]);
    expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(1);
  });

  it('books exactly one of two overlapping bookings when one commits between the other’s reads', async () => {
    const { client, body } = await booked();
    const release = holdFirstScheduleRead();
    try {
      const results = await Promise.all([book(client, body('2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z')), book(client, body('2026-12-02T09:30:00Z', '2026-12-02T11:00:00Z'))]);
      expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
    } finally {
      release();
    }
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(1);
  });

  it.each([
    ['endsAt before startsAt', { startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T09:00:00Z' }, 'endsAt'],
    ['endsAt equal to startsAt', { startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T10:00:00Z' }, 'endsAt'],
    ['an appointment longer than 7 days', { startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-08T10:00:01Z' }, 'endsAt'],
    ['a time without an offset', { startsAt: '2026-12-01T10:00:00', endsAt: '2026-12-01T11:00:00Z' }, 'startsAt'],
    ['a time zone that is not IANA', { timezone: 'AEST' }, 'timezone'],
    ['a repeated attendee', { attendees: [{ userId: 'user_01HZZZZZZZZZZZZZZZZZZZZZZZ' }, { userId: 'user_01HZZZZZZZZZZZZZZZZZZZZZZZ' }] }, 'attendees'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['no title', { title: undefined }, 'title'],
    ['an empty title', { title: '  ' }, 'title'],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, 'title'],
    ['a location over 500 characters', { location: 'x'.repeat(501) }, 'location'],
    ['notes over 5000 characters', { notes: 'x'.repeat(5001) }, 'notes'],
    ['more than 20 attendees', { attendees: Array.from({ length: 21 }, (_, i) => ({ userId: `user_01HZZZZZZZZZZZZZZZZZZZZZ${String(i).padStart(2, '0')}` })) }, 'attendees'],
    ['an attendee without a userId', { attendees: [{}] }, 'attendees.0.userId'],
  ])('answers 400 for %s, naming the field', async (_, change, field) => {
    const { client, body } = await booked();
    const res = await book(client, { ...body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'), ...change });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(0);
  });

  it('answers a malformed leadId as an unknown lead: 404, and books nothing', async () => {
    const { client, body } = await booked();
    const res = await book(client, { ...body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'), leadId: 'lead_1' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Lead not found');
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(0);
  });

  it('accepts an appointment of exactly 7 days, and still finds it when a booking starts near its end', async () => {
    const { client, body } = await booked();
    expect((await book(client, body('2026-12-01T09:00:00Z', '2026-12-08T09:00:00Z'))).status).toBe(201);
    const clash = await book(client, body('2026-12-08T08:00:00Z', '2026-12-08T10:00:00Z'));
    expect(clash.status).toBe(409);
    expect((await book(client, body('2026-12-08T09:00:00Z', '2026-12-08T10:00:00Z'))).status).toBe(201);
  });

  it('books with one read of each kind and one transaction, the organization read only for its time zone', async () => {
    const { client, body } = await booked();
    // The activity's id comes from the block of activity ids the lead's create reserved in this container.
    expect(await countDynamoCalls(() => book(client, body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z')))).toEqual([
      'GetItemCommand',
      'BatchGetItemCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
    ]);
    expect(await countDynamoCalls(() => book(client, { ...body('2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z'), timezone: 'Australia/Perth' }))).toEqual([
      'BatchGetItemCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it("answers 400 naming attendees for a user who is not the organization's member, and writes nothing", async () => {
    const { client, body } = await booked();
    const other = await booked();
    const res = await book(client, body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', [other.kate.user.id]));
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('attendees');
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(0);
  });

  it("answers 404 for an unknown lead or another organization's, and writes nothing", async () => {
    const { client, body } = await booked();
    const other = await booked();
    for (const leadId of ['lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', other.lead.id]) {
      const res = await book(client, { ...body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', []), leadId });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Lead not found');
    }
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(0);
  });
});

describe('PATCH /v1/appointments/{appointmentId}', () => {
  it('reschedules (APPOINTMENT_RESCHEDULED), frees the old time, and cancels (APPOINTMENT_CANCELLED), freeing the new one', async () => {
    const { client, lead, body } = await booked();
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    const moved = await client.patch(`/v1/appointments/${appointment.id}`, { startsAt: '2026-12-01T13:00:00Z', endsAt: '2026-12-01T14:00:00Z' });
    expect(moved.status).toBe(200);
    expect(moved.body.appointment).toMatchObject({ startsAt: '2026-12-01T13:00:00.000Z', endsAt: '2026-12-01T14:00:00.000Z', status: 'BOOKED' });
    expect((await book(client, body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'))).status).toBe(201);
    expect((await book(client, body('2026-12-01T13:30:00Z', '2026-12-01T14:30:00Z'))).status).toBe(409);

    const cancelled = await client.patch(`/v1/appointments/${appointment.id}`, { status: 'CANCELLED' });
    expect(cancelled.body.appointment.status).toBe('CANCELLED');
    expect((await book(client, body('2026-12-01T13:30:00Z', '2026-12-01T14:30:00Z'))).status).toBe(201);
    const events = (await client.get(`/v1/leads/${lead.id}/activities`)).body.activities.map((a: { event: string; referenceId: string }) => a.event);
    expect(events.slice(0, 5)).toEqual(['APPOINTMENT_BOOKED', 'APPOINTMENT_CANCELLED', 'APPOINTMENT_BOOKED', 'APPOINTMENT_RESCHEDULED', 'APPOINTMENT_BOOKED']);
    const again = await client.patch(`/v1/appointments/${appointment.id}`, { title: 'Too late' });
    expect(again.status).toBe(409);
  });

  it('checks a new attendee against their schedule, and a title change touches no schedule', async () => {
    const { client, dan, kate, body } = await booked();
    await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', [dan.user.id]));
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:30:00Z', '2026-12-01T10:30:00Z'));
    const res = await client.patch(`/v1/appointments/${appointment.id}`, { attendees: [{ userId: kate.user.id }, { userId: dan.user.id }] });
    expect(res.status).toBe(409);
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body.appointment.attendees).toEqual([{ userId: kate.user.id }]);
    const calls = await countDynamoCalls(() => client.patch(`/v1/appointments/${appointment.id}`, { title: 'Drain camera inspection' }));
    expect(calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  });

  it('answers 400 when the merged times end before they start, naming endsAt', async () => {
    const { client, body } = await booked();
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    const res = await client.patch(`/v1/appointments/${appointment.id}`, { startsAt: '2026-12-01T11:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'endsAt', message: 'endsAt must be after startsAt' }]);
  });

  it('answers 400 naming endsAt when the merged times would last longer than 7 days', async () => {
    const { client, body } = await booked();
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    const res = await client.patch(`/v1/appointments/${appointment.id}`, { endsAt: '2026-12-08T09:00:01Z' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'endsAt', message: 'endsAt must be at most 7 days after startsAt' }]);
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body.appointment.endsAt).toBe('2026-12-01T10:00:00.000Z');
  });

  it('cancels an appointment whose lead was deleted, freeing the time, and refuses any other change of it with 404', async () => {
    const { client, lead, body } = await booked();
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    expect((await client.delete(`/v1/leads/${lead.id}`)).status).toBe(200);
    const retitled = await client.patch(`/v1/appointments/${appointment.id}`, { title: 'Drain camera inspection' });
    expect(retitled.status).toBe(404);
    expect(retitled.body.message).toBe('Lead not found');
    expect((await client.patch(`/v1/appointments/${appointment.id}`, { startsAt: '2026-12-01T11:00:00Z', endsAt: '2026-12-01T12:00:00Z' })).status).toBe(404);
    const cancelled = await client.patch(`/v1/appointments/${appointment.id}`, { status: 'CANCELLED' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.appointment).toMatchObject({ title: 'Blocked drain inspection', status: 'CANCELLED', startsAt: '2026-12-01T09:00:00.000Z' });
    const otherLead = await created(client, '/v1/leads', 'lead', { name: 'Tom Baker', email: 'tom@example.com' });
    expect((await book(client, { ...body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'), leadId: otherLead.id })).status).toBe(201);
    expect((await client.get(`/v1/leads/${lead.id}/activities`)).status).toBe(404);
  });

  it.each([
    ['a status other than CANCELLED', { status: 'BOOKED' }, 'status'],
    ['an empty title', { title: '' }, 'title'],
    ['a time without an offset', { startsAt: '2026-12-01T08:00:00' }, 'startsAt'],
    ['an unknown field', { leadId: 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ' }, 'leadId'],
  ])('answers 400 for %s, naming the field, and changes nothing', async (_, change, field) => {
    const { client, body } = await booked();
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    const res = await client.patch(`/v1/appointments/${appointment.id}`, change);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body).toEqual({ appointment });
  });

  it('answers 400 for an empty body', async () => {
    const { client, body } = await booked();
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    expect((await client.patch(`/v1/appointments/${appointment.id}`, {})).status).toBe(400);
  });

  it("answers 404 for an unknown appointment, another organization's, or a malformed id", async () => {
    const { client, body } = await booked();
    const mine = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    const other = await api.organization();
    expect((await other.client.patch(`/v1/appointments/${mine.id}`, { status: 'CANCELLED' })).status).toBe(404);
    expect((await other.client.get(`/v1/appointments/${mine.id}`)).status).toBe(404);
    expect((await client.get('/v1/appointments/appointment_01HZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
    expect((await client.get('/v1/appointments/42')).body.message).toBe('Appointment not found');
    expect((await client.get(`/v1/appointments/${mine.id}`)).body.appointment.status).toBe('BOOKED');
  });
});

describe('GET /v1/appointments', () => {
  it('lists by start time, earliest first, filtered by lead and by a [from, to) window, with exact totals', async () => {
    const { client, lead, dan, body } = await booked();
    const otherLead = await created(client, '/v1/leads', 'lead', { name: 'Tom Baker', email: 'tom@example.com' });
    const late = await created(client, '/v1/appointments', 'appointment', body('2026-12-03T09:00:00Z', '2026-12-03T10:00:00Z'));
    const early = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    const middle = await created(client, '/v1/appointments', 'appointment', { ...body('2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z', [dan.user.id]), leadId: otherLead.id });
    const ids = async (query: string) => {
      const page = (await client.get(`/v1/appointments?${query}`)).body;
      expect(page.totalCount, query).toBe(page.appointments.length);
      return page.appointments.map((appointment: { id: string }) => appointment.id);
    };
    expect(await ids('')).toEqual([early.id, middle.id, late.id]);
    expect(await ids(`leadId=${lead.id}`)).toEqual([early.id, late.id]);
    expect(await ids('from=2026-12-02T09:00:00Z')).toEqual([middle.id, late.id]);
    expect(await ids('to=2026-12-03T09:00:00Z')).toEqual([early.id, middle.id]);
    expect(await ids(`leadId=${lead.id}&from=2026-12-01T09:00:01Z&to=2026-12-31T00:00:00Z`)).toEqual([late.id]);
    const page2 = (await client.get('/v1/appointments?limit=2&page=2')).body;
    expect(page2).toMatchObject({ totalCount: 3, totalPages: 2, currentPage: 2, appointments: [{ id: late.id }] });
  });

  it("lists none of another organization's appointments", async () => {
    const { client, body } = await booked();
    await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    const other = await api.organization();
    expect((await other.client.get('/v1/appointments')).body).toEqual({ appointments: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it('pages through a window, earliest first, with the total counted over the window', async () => {
    const { client, body } = await booked();
    const ids: string[] = [];
    for (const day of ['01', '02', '03', '04', '05']) {
      ids.push((await created(client, '/v1/appointments', 'appointment', body(`2026-12-${day}T09:00:00Z`, `2026-12-${day}T10:00:00Z`))).id);
    }
    const window = 'from=2026-12-02T00:00:00Z&to=2026-12-05T00:00:00Z&limit=2';
    const first = (await client.get(`/v1/appointments?${window}`)).body;
    const second = (await client.get(`/v1/appointments?${window}&page=2`)).body;
    const third = (await client.get(`/v1/appointments?${window}&page=3`)).body;
    expect(first).toMatchObject({ totalCount: 3, totalPages: 2, currentPage: 1 });
    expect(second).toMatchObject({ totalCount: 3, totalPages: 2, currentPage: 2 });
    expect([...first.appointments, ...second.appointments].map((appointment: { id: string }) => appointment.id)).toEqual(ids.slice(1, 4));
    expect(third).toMatchObject({ appointments: [], totalCount: 3, currentPage: 3 });
  });

  it('reads one appointment with one GetItem', async () => {
    const { client, body } = await booked();
    const appointment = await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    expect(await countDynamoCalls(() => client.get(`/v1/appointments/${appointment.id}`))).toEqual(['GetItemCommand']);
  });

  it('reads page 1 with one index Query and one counter read', async () => {
    const { client, body } = await booked();
    await created(client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
    expect((await countDynamoCalls(() => client.get('/v1/appointments'))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });

  it.each([
    ['from=yesterday', 'from'],
    ['to=2026-12-01', 'to'],
    ['leadId=lead_1', 'leadId'],
    ['from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z', 'to'],
    ['from=2026-12-01T00:00:00Z&to=2026-12-01T00:00:00Z', 'to'],
  ])('answers 400 for %s, naming %s', async (query, field) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/appointments?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });
});

describe('POST /v1/appointments timezone', () => {
  it('takes Asia/Kolkata, the IANA name of India’s zone, as the zone to show the times in', async () => {
    const { client } = await api.organization();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Priya Sharma', email: 'priya@example.com' });
    const member = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const res = await client.post('/v1/appointments', {
      leadId: lead.id,
      title: 'Blocked drain inspection',
      startsAt: '2026-12-01T09:00:00+05:30',
      endsAt: '2026-12-01T10:00:00+05:30',
      timezone: 'Asia/Kolkata',
      attendees: [{ userId: member.user.id }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.appointment.timezone).toBe('Asia/Kolkata');
  });
});

/** An organization in UTC open Mondays 09:00–17:00, with one member (Kate), a lead and a one-hour service. */
async function inspectionOnMondays() {
  const { client } = await api.organization();
  await client.patch('/v1/organization', { timezone: 'Etc/UTC', businessHours: { monday: [{ open: '09:00', close: '17:00' }] } });
  const kate = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
  const service = await created(client, '/v1/services', 'service', { name: 'Inspection', description: 'An hour', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });
  return { client, kate, lead, service };
}

describe('booking one hold twice at once', () => {
  it('answers 409 HOLD_EXPIRED to the booking that loses, as it does when the two come one after the other', async () => {
    const { client, kate, lead, service } = await inspectionOnMondays();
    const held = (await client.post('/v1/availability/holds', { serviceId: service.id, startsAt: '2027-02-01T12:00:00Z', memberId: kate.id })).body.hold;
    // One booking commits while the other has read the hold and is between its schedule reads.
    const release = holdFirstScheduleRead();
    let answers;
    try {
      answers = await Promise.all([client.post('/v1/appointments', { leadId: lead.id, holdId: held.id }), client.post('/v1/appointments', { leadId: lead.id, holdId: held.id })]);
    } finally {
      release();
    }
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(answers.find((res) => res.status === 409)!.body.error.code).toBe('HOLD_EXPIRED');
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(1);
  });

  it('answers 409 SLOT_TAKEN to a booking of a hold whose member was removed since, not a 400 naming attendees it may not send', async () => {
    const { client, kate, lead, service } = await inspectionOnMondays();
    const held = (await client.post('/v1/availability/holds', { serviceId: service.id, startsAt: '2027-02-01T12:00:00Z', memberId: kate.id, leadId: lead.id })).body.hold;
    expect((await client.delete(`/v1/organization/members/${kate.id}`)).status).toBe(200);
    const res = await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id });
    expect([res.status, res.body.error.code]).toEqual([409, 'SLOT_TAKEN']);
    expect((await client.get('/v1/appointments')).body.totalCount).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';

const api = useTestApi({ events: true });

/** An organization with a lead, a member and one BOOKED appointment of theirs on 1 December, 09:00 to 10:00 UTC. */
async function booked() {
  const org = await api.organization();
  const lead = await created(org.client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', email: 'olivia@example.com' });
  const kate = await created(org.client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  const body = (startsAt: string, endsAt: string) => ({ leadId: lead.id, title: 'Blocked drain inspection', startsAt, endsAt, attendees: [{ userId: kate.user.id }] });
  const appointment = await created(org.client, '/v1/appointments', 'appointment', body('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'));
  return { ...org, lead, body, appointment };
}

const end = async (client: Client, appointmentId: string, status: string) => {
  const res = await client.patch(`/v1/appointments/${appointmentId}`, { status });
  expect(res.status).toBe(200);
  return res.body.appointment;
};

const activitiesOf = async (client: Client, leadId: string) => (await client.get(`/v1/leads/${leadId}/activities`)).body.activities as { event: string; data: string; referenceId: string }[];

describe('completing an appointment or marking a no-show', () => {
  it.each([
    ['COMPLETED', 'APPOINTMENT_COMPLETED', 'Appointment "Blocked drain inspection" completed'],
    ['NO_SHOW', 'APPOINTMENT_NO_SHOW', 'Appointment "Blocked drain inspection" marked as a no-show'],
  ])('moves a BOOKED appointment to %s, records %s on the lead, and keeps the attendee’s time booked', async (status, event, data) => {
    const { client, lead, body, appointment } = await booked();
    const ended = await end(client, appointment.id, status);
    expect(ended).toEqual({ ...appointment, status, updatedAt: expect.any(String) });
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body.appointment).toEqual(ended);
    expect((await activitiesOf(client, lead.id))[0]).toMatchObject({ event, data, referenceId: appointment.id });
    // The time was spent (or held for a lead who did not come): it is not free for another booking, as a cancelled one's is.
    expect((await client.post('/v1/appointments', body('2026-12-01T09:30:00Z', '2026-12-01T10:30:00Z'))).status).toBe(409);
  });

  it.each([
    ['COMPLETED', 'CANCELLED', 'The appointment is completed and can no longer be changed'],
    ['COMPLETED', 'NO_SHOW', 'The appointment is completed and can no longer be changed'],
    ['NO_SHOW', 'COMPLETED', 'The appointment is marked as a no-show and can no longer be changed'],
    ['CANCELLED', 'COMPLETED', 'The appointment is cancelled and can no longer be changed'],
    ['CANCELLED', 'NO_SHOW', 'The appointment is cancelled and can no longer be changed'],
  ])('answers 409 when a %s appointment is sent %s, and changes nothing', async (first, then, message) => {
    const { client, lead, appointment } = await booked();
    const ended = await end(client, appointment.id, first);
    const activities = await activitiesOf(client, lead.id);
    const res = await client.patch(`/v1/appointments/${appointment.id}`, { status: then });
    expect([res.status, res.body.error.message]).toEqual([409, message]);
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body.appointment).toEqual(ended);
    expect(await activitiesOf(client, lead.id)).toEqual(activities);
  });

  it('answers 409 to any other change of a completed appointment', async () => {
    const { client, appointment } = await booked();
    const completed = await end(client, appointment.id, 'COMPLETED');
    for (const change of [{ notes: 'Invoice sent' }, { startsAt: '2026-12-02T09:00:00Z', endsAt: '2026-12-02T10:00:00Z' }, { status: 'COMPLETED' }]) {
      expect((await client.patch(`/v1/appointments/${appointment.id}`, change)).status).toBe(409);
    }
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body.appointment).toEqual(completed);
  });

  it('answers 400 naming status for a status no change may set', async () => {
    const { client, appointment } = await booked();
    for (const status of ['BOOKED', 'DONE', 'completed']) {
      const res = await client.patch(`/v1/appointments/${appointment.id}`, { status });
      expect([res.status, res.body.error.details[0].path, res.body.error.details[0].message]).toEqual([400, 'status', 'status may only be set to CANCELLED, COMPLETED, NO_SHOW']);
    }
    expect((await client.get(`/v1/appointments/${appointment.id}`)).body.appointment).toEqual(appointment);
  });

  it('emits appointment.completed and appointment.no_show with the appointment as the API returns it, in place of appointment.updated', async () => {
    const { client, body, appointment } = await booked();
    const other = await created(client, '/v1/appointments', 'appointment', body('2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z'));
    const completed = await end(client, appointment.id, 'COMPLETED');
    const noShow = await end(client, other.id, 'NO_SHOW');
    await api.eventsCaughtUp();
    const events = (await client.get('/v1/events?limit=100')).body.events as { type: string; data: unknown; previousAttributes?: unknown }[];
    expect(events.filter((event) => event.type.startsWith('appointment.')).map((event) => event.type)).toEqual(['appointment.no_show', 'appointment.completed', 'appointment.created', 'appointment.created']);
    expect(events.find((event) => event.type === 'appointment.completed')).toMatchObject({ data: completed });
    expect(events.find((event) => event.type === 'appointment.no_show')).toMatchObject({ data: noShow });
    expect((await client.get('/v1/events?type=appointment.completed')).body.events).toHaveLength(1);
  });

  it('leaves an appointment completed or marked a no-show out of a caller’s upcoming appointments', async () => {
    const { client, lead, body, appointment } = await booked();
    await client.patch(`/v1/leads/${lead.id}`, { phone: '+61412345001' });
    // Only the visits below, a day or more from now, may be to come.
    await end(client, appointment.id, 'CANCELLED');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();
    const visits: { id: string }[] = [];
    for (const offset of [1, 2, 3]) visits.push(await created(client, '/v1/appointments', 'appointment', body(day(offset), day(offset + 0.04))));
    await end(client, visits[0]!.id, 'COMPLETED');
    await end(client, visits[1]!.id, 'NO_SHOW');
    const res = await client.get('/v1/callers/%2B61412345001');
    expect(res.body.caller.upcomingAppointments.map((visit: { id: string }) => visit.id)).toEqual([visits[2]!.id]);
  });
});

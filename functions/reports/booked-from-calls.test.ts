import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';

// An appointment says where it was booked (`source`, docs/decisions/reports.md "Booked from calls"); the reports count
// the ones booked on a call, whether the receptionist's MCP tool booked it or a client sent the source itself.
const api = useTestApi({ events: true });

const WEEKDAY = [{ open: '08:00', close: '17:00' }];
const MONDAY = { from: '2027-01-04T00:00:00+11:00', to: '2027-01-05T00:00:00+11:00' };

async function plumber() {
  const organization = await api.organization();
  const { client } = organization;
  expect((await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: { monday: WEEKDAY, tuesday: WEEKDAY } })).status).toBe(200);
  const member = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  const service = await created(client, '/v1/services', 'service', { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: [], duration: 60, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' });
  const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
  return { ...organization, userId: member.user.id as string, service, lead };
}

const ownTimes = (leadId: string, userId: string, startsAt: string) => ({
  leadId,
  title: 'Blocked drain inspection',
  startsAt,
  endsAt: new Date(Date.parse(startsAt) + 3_600_000).toISOString(),
  attendees: [{ userId }],
});

/** The receptionist's curated tool, called as a voice platform calls it. */
async function bookOnCall(client: Client, serviceId: number, leadId: string) {
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.post('/mcp?tools=curated', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    expect(res.body.result.isError ?? false, JSON.stringify(res.body)).toBe(false);
    return res.body.result.structuredContent;
  };
  const { slots } = await call('find_availability', { serviceId, ...MONDAY });
  const { hold } = await call('hold_slot', { serviceId, startsAt: slots[0].startsAt, leadId });
  return (await call('book_appointment', { leadId, holdId: hold.id })).appointment;
}

describe('appointments booked from calls', () => {
  it('are the ones whose booking said CALL: the receptionist’s book_appointment always does', async () => {
    const { client, userId, service, lead } = await plumber();
    const onCall = await bookOnCall(client, service.id, lead.id);
    expect(onCall.source).toBe('CALL');
    expect((await client.get(`/v1/appointments/${onCall.id}`)).body.appointment.source).toBe('CALL');
    const sent = await created(client, '/v1/appointments', 'appointment', { ...ownTimes(lead.id, userId, '2027-01-05T01:00:00.000Z'), source: 'CALL' });
    expect(sent.source).toBe('CALL');
    const online = await created(client, '/v1/appointments', 'appointment', { ...ownTimes(lead.id, userId, '2027-01-05T03:00:00.000Z'), source: 'WEB' });
    // Booked without a source: none is answered, and it is no booking from a call.
    const unsaid = await created(client, '/v1/appointments', 'appointment', ownTimes(lead.id, userId, '2027-01-05T05:00:00.000Z'));
    expect([online.source, 'source' in unsaid]).toEqual(['WEB', false]);
    await api.eventsCaughtUp();

    const { appointments } = (await client.get('/v1/reports/summary')).body.summary;
    expect([appointments.booked, appointments.bookedFromCalls]).toEqual([4, 2]);
  });

  it('keep where they were booked: a source is set on create only, and only one of the documented ones', async () => {
    const { client, userId, lead } = await plumber();
    const refused = await client.post('/v1/appointments', { ...ownTimes(lead.id, userId, '2027-01-05T01:00:00.000Z'), source: 'PHONE' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ path: 'source', message: 'source must be one of CALL, WEB, MANUAL, OTHER' })]);
    const booked = await created(client, '/v1/appointments', 'appointment', { ...ownTimes(lead.id, userId, '2027-01-05T01:00:00.000Z'), source: 'MANUAL' });
    const changed = await client.patch(`/v1/appointments/${booked.id}`, { source: 'CALL' });
    expect(changed.status).toBe(400);
    expect(JSON.stringify(changed.body.error.details)).toContain('source');
    expect((await client.get(`/v1/appointments/${booked.id}`)).body.appointment.source).toBe('MANUAL');
  });
});

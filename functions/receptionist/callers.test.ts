import { describe, expect, it, vi } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { measureDynamoCalls, roundTrips } from '../../test/support/dynamo-calls';
import { inDays } from '../../test/support/fixtures';

/** GET /v1/callers/{phone}: what a voice agent learns of a caller in the first second of a call. */

const api = useTestApi();

const webform = (phone: string, summary: string) => ({
  source: 'WEBFORM',
  lead: { phone },
  summary,
  data: { formName: 'Contact us', submittedAt: '2026-11-20T09:00:00Z', pageUrl: 'https://northside.example.com/contact', fields: [{ name: 'message', label: 'Message', value: summary }] },
});

async function callerOrganization(): Promise<{ client: Client; leadId: string }> {
  const { client } = await api.organization();
  await client.patch('/v1/organization', { name: 'Northside Plumbing', timezone: 'Australia/Sydney', businessHours: {} });
  const leadId = (await client.post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412345001' })).body.lead.id;
  return { client, leadId };
}

describe('GET /v1/callers/{phone}', () => {
  it('answers the lead with its latest inquiries unread first, its appointments to come, and the organization', async () => {
    const { client, leadId } = await callerOrganization();
    const ids: string[] = [];
    for (const summary of ['Leaking tap', 'Blocked drain', 'Hot water quote']) ids.push((await client.post('/v1/inquiries', webform('+61412345001', summary))).body.inquiry.id);
    await client.patch(`/v1/inquiries/${ids[2]}`, { isRead: true });
    const appointment = (title: string, days: number) => client.post('/v1/appointments', { leadId, title, startsAt: inDays(days), endsAt: inDays(days, 1) }).then((res) => res.body.appointment.id as string);
    await appointment('Last week', -7);
    const later = await appointment('Quote visit', 3);
    const sooner = await appointment('Drain camera', 1);
    const cancelled = await appointment('Cancelled visit', 2);
    await client.patch(`/v1/appointments/${cancelled}`, { status: 'CANCELLED' });

    const res = await client.get('/v1/callers/%2B61412345001');
    expect(res.status).toBe(200);
    expect(res.body.caller.lead).toMatchObject({ id: leadId, firstName: 'Olivia', phone: '+61412345001' });
    // Newest first within unread, then the read one.
    expect(res.body.caller.openInquiries.map((inquiry: { id: string }) => inquiry.id)).toEqual([ids[1], ids[0], ids[2]]);
    expect(res.body.caller.upcomingAppointments.map((appointment: { id: string }) => appointment.id)).toEqual([sooner, later]);
    expect(res.body.caller.smsOptedOut).toBe(false);
    expect(res.body.organization).toEqual({ name: 'Northside Plumbing', timezone: 'Australia/Sydney', isOpenNow: false, nextOpenAt: null });
  });

  it('answers the visits still booked after more cancelled ones than one read holds', async () => {
    const { client, leadId } = await callerOrganization();
    const appointment = (days: number) => client.post('/v1/appointments', { leadId, title: 'Visit', startsAt: inDays(days), endsAt: inDays(days, 1) }).then((res) => res.body.appointment.id as string);
    // Eleven cancelled visits come before the booked ones: more than the ten the first read takes.
    for (let day = 1; day <= 11; day++) await client.patch(`/v1/appointments/${await appointment(day)}`, { status: 'CANCELLED' });
    const booked: string[] = [];
    for (let day = 12; day <= 18; day++) booked.push(await appointment(day));

    const res = await client.get('/v1/callers/%2B61412345001');
    expect(res.status).toBe(200);
    expect(res.body.caller.upcomingAppointments.map((visit: { id: string }) => visit.id)).toEqual(booked.slice(0, 5));
  });

  it('finds the caller from any common form of the number, read with the organization’s country', async () => {
    const { client, leadId } = await callerOrganization();
    // An international form may show the trunk prefix no one dials in brackets: +61 (0)412 345 001.
    // Typed without its +, the international form is longer than any Australian number, so it is read as one.
    for (const typed of ['0412 345 001', '+61 412 345 001', '(04) 1234 5001', '0061412345001', '+61 (0)412 345 001', '0061 (0) 412 345 001', '61412345001', '61 0412 345 001']) {
      const res = await client.get(`/v1/callers/${encodeURIComponent(typed)}`);
      expect([typed, res.status, res.body.caller.lead?.id]).toEqual([typed, 200, leadId]);
    }
    // One digit off is another number, and only a bracketed 0 is a trunk prefix.
    expect((await client.get('/v1/callers/%2B61412345002')).body.caller.lead).toBeNull();
    const bracketedOne = await client.get(`/v1/callers/${encodeURIComponent('+61 (1)412 345 001')}`);
    expect([bracketedOne.status, bracketedOne.body.error?.details?.[0]?.path]).toEqual([400, 'phone']);
  });

  it('reads each country’s national forms with its own lengths, freephone numbers and the calling code without its plus included', async () => {
    const { client } = await api.organization();
    const cases = [
      ['IE', '1800 123 456', '+3531800123456'],
      ['IE', '353 087 123 4567', '+353871234567'],
      ['GB', '44 07911 123456', '+447911123456'],
      ['SG', '1800 123 4567', '+6518001234567'],
      ['SG', '9123 4567', '+6591234567'],
      ['US', '1 (415) 555-2671', '+14155552671'],
    ] as const;
    for (const [country, typed, e164] of cases) {
      expect((await client.patch('/v1/organization', { country })).status).toBe(200);
      const lead = (await client.post('/v1/leads', { name: `Caller ${e164}`, phone: e164 })).body.lead;
      const res = await client.get(`/v1/callers/${encodeURIComponent(typed)}`);
      expect([country, typed, res.status, res.body.caller?.lead?.id]).toEqual([country, typed, 200, lead.id]);
    }
  });

  it('says when a closed business next opens, as the organization does, and null while it is open', async () => {
    const { client } = await callerOrganization();
    // Open only 09:00–10:00 on the weekday three days from now in Sydney: closed now, and that morning is next.
    const opening = new Date(Date.now() + 3 * 86_400_000);
    const weekday = opening.toLocaleDateString('en-US', { timeZone: 'Australia/Sydney', weekday: 'long' }).toLowerCase();
    const date = opening.toLocaleDateString('en-CA', { timeZone: 'Australia/Sydney' });
    await client.patch('/v1/organization', { businessHours: { [weekday]: [{ open: '09:00', close: '10:00' }] } });
    const closed = await client.get('/v1/callers/%2B61298765432');
    const nextOpenAt = closed.body.organization.nextOpenAt;
    expect(closed.body.organization).toMatchObject({ isOpenNow: false, nextOpenAt: expect.any(String) });
    expect(new Date(nextOpenAt).toLocaleString('en-CA', { timeZone: 'Australia/Sydney', hourCycle: 'h23' })).toBe(`${date}, 09:00:00`);
    expect((await client.get('/v1/organization')).body.organization.nextOpenAt).toBe(nextOpenAt);

    const allDay = [{ open: '00:00', close: '24:00' }];
    await client.patch('/v1/organization', { businessHours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, allDay])) });
    expect((await client.get('/v1/callers/%2B61298765432')).body.organization).toMatchObject({ isOpenNow: true, nextOpenAt: null });
  });

  it('looks up a caller of a business open around the clock for about what one open office hours costs', async () => {
    const everyDay = (periods: { open: string; close: string }[], days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']) => Object.fromEntries(days.map((day) => [day, periods]));
    /** How often one lookup reads a zone's wall clock (each a call of Intl's formatToParts): the cost of "is it open now". */
    const readingsOfLookup = async (businessHours: Record<string, unknown>) => {
      const { client } = await callerOrganization();
      await client.patch('/v1/organization', { businessHours });
      await client.get('/v1/callers/%2B61412345001');
      const spy = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
      try {
        const res = await client.get('/v1/callers/%2B61412345001');
        expect(res.status).toBe(200);
        return { organization: res.body.organization, readings: spy.mock.calls.length };
      } finally {
        spy.mockRestore();
      }
    };
    const office = await readingsOfLookup(everyDay([{ open: '07:00', close: '17:00' }], ['monday', 'tuesday', 'wednesday', 'thursday', 'friday']));
    const always = await readingsOfLookup(everyDay([{ open: '00:00', close: '24:00' }]));
    expect(always.organization).toMatchObject({ isOpenNow: true, nextOpenAt: null });
    expect(office.readings).toBeGreaterThan(0);
    // Read a year ahead for a closing that never came, it took some 2 300 readings.
    expect(always.readings).toBeLessThanOrEqual(2 * office.readings);
  });

  it('answers an unknown caller 200 with lead null and the rest, never 404', async () => {
    const { client } = await callerOrganization();
    const res = await client.get('/v1/callers/%2B61298765432');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      caller: { lead: null, openInquiries: [], upcomingAppointments: [], smsOptedOut: false },
      organization: { name: 'Northside Plumbing', timezone: 'Australia/Sydney', isOpenNow: false, nextOpenAt: null },
    });
  });

  it('answers 400 naming phone for text that is not a phone number', async () => {
    const { client } = await callerOrganization();
    // Too long for an Australian number, and not one typed with its calling code either.
    for (const typed of ['abc', '12', '+0412345001', '0412 345 001 999', '71412345001']) {
      const res = await client.get(`/v1/callers/${encodeURIComponent(typed)}`);
      expect([typed, res.status, res.body.error?.details?.[0]?.path]).toEqual([typed, 400, 'phone']);
    }
  });

  it('takes two round trips for an E.164 number; a national form reads the organization’s country first', async () => {
    const { client } = await callerOrganization();
    await client.post('/v1/inquiries', webform('+61412345001', 'Leaking tap'));
    const e164 = await measureDynamoCalls(() => client.get('/v1/callers/%2B61412345001'));
    // The organization, the phone's claim and its opt-out; then the claimed lead, its inquiries (a page and its
    // counter) and its appointments (a page, and its range counted).
    expect(roundTrips(e164)).toEqual([
      ['GetItemCommand', 'GetItemCommand', 'GetItemCommand'],
      ['GetItemCommand', 'GetItemCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand'].sort(),
    ]);
    const national = await measureDynamoCalls(() => client.get('/v1/callers/0412345001'));
    // The same calls and the organization's country, read before the phone's claim can be.
    expect(national.map((call) => call.command).sort()).toEqual([...e164.map((call) => call.command), 'GetItemCommand'].sort());
    // The organization and its country are read together; the phone's claim and opt-out only once the country is known.
    const [first, second, ...later] = national.filter((call) => call.command === 'GetItemCommand').sort((a, b) => a.sentAt - b.sentAt);
    for (const call of later) expect(call.sentAt).toBeGreaterThanOrEqual(Math.min(first!.answeredAt, second!.answeredAt));
  });

  it('knows a caller by the phone a lead has now: a lead that changed its phone is not the old number’s caller', async () => {
    const { client } = await callerOrganization();
    const lead = (await client.post('/v1/leads', { firstName: 'Mover', phone: '+61412345002' })).body.lead;
    expect((await client.get('/v1/callers/%2B61412345002')).body.caller.lead?.id).toBe(lead.id);
    expect((await client.patch(`/v1/leads/${lead.id}`, { phone: '+61412345003' })).status).toBe(200);
    const old = await client.get('/v1/callers/%2B61412345002');
    expect([old.status, old.body.caller.lead, old.body.caller.openInquiries]).toEqual([200, null, []]);
    expect((await client.get('/v1/callers/%2B61412345003')).body.caller.lead?.id).toBe(lead.id);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApi } from './support/api';

const api = useTestApi();

describe('an organization made without demo data', () => {
  it('sets itself up through the API alone and works every resource, with totals and activities right', async () => {
    const { client } = await api.organization();

    const organization = (await client.patch('/v1/organization', { name: 'Northside Plumbing', timezone: 'Australia/Sydney' })).body.organization;
    expect(organization).toMatchObject({ name: 'Northside Plumbing', timezone: 'Australia/Sydney', counts: { leads: 0, members: 0, services: 0 } });

    const member = (await client.post('/v1/organization/members', { email: 'kate@northside.com.au', firstName: 'Kate', lastName: 'Nguyen', role: 'MEMBER' })).body.member;
    expect((await client.get('/v1/organization/members')).body).toEqual({ members: [member], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });

    const lead = (await client.post('/v1/leads', { name: 'Tom Baker', email: 'tom@example.com', phone: '+61412555000' })).body.lead;
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);

    const sms = await client.post('/v1/sms', { userId: member.user.id, leadId: lead.id, message: 'Hi Tom, Kate from Northside. When suits for a quote?' });
    expect(sms.status).toBe(201);
    const inquiries = (await client.get(`/v1/inquiries?leadId=${lead.id}`)).body;
    expect(inquiries).toMatchObject({ totalCount: 1, inquiries: [{ source: 'SMS', leadId: lead.id, isFirstInquiry: true }] });
    const thread = (await client.get(`/v1/inquiries/${inquiries.inquiries[0].id}`)).body;
    expect(thread.data.messages).toEqual([expect.objectContaining({ direction: 'OUTBOUND', userId: member.user.id, body: 'Hi Tom, Kate from Northside. When suits for a quote?' })]);

    const company = (await client.post('/v1/companies', { name: 'Baker Developments', phone: '+61299990000' })).body.company;
    const note = (await client.post(`/v1/companies/${company.id}/notes`, { value: 'Tom is the site manager.', userId: member.user.id })).body.note;
    expect((await client.get(`/v1/companies/${company.id}/notes`)).body).toEqual({ notes: [note], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });
    expect((await client.get('/v1/companies')).body).toMatchObject({ totalCount: 1, companies: [company] });

    const policy = (await client.post('/v1/policies', { title: 'Call-out fee', content: '$99 call-out, waived if we do the job.' })).body.policy;
    expect((await client.get('/v1/policies')).body).toEqual({ policies: [policy], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });
    const faq = (await client.post('/v1/faqs', { question: 'Do you do emergencies?', answer: 'Yes, 24/7.' })).body.faq;
    expect((await client.get('/v1/faqs')).body).toEqual({ faqs: [faq], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });

    const appointment = (
      await client.post('/v1/appointments', { leadId: lead.id, title: 'Quote visit', startsAt: '2026-12-01T09:00:00+11:00', endsAt: '2026-12-01T10:00:00+11:00', attendees: [{ userId: member.user.id }] })
    ).body.appointment;
    expect(appointment).toMatchObject({ timezone: 'Australia/Sydney', status: 'BOOKED', startsAt: '2026-11-30T22:00:00.000Z' });
    const moved = (await client.patch(`/v1/appointments/${appointment.id}`, { startsAt: '2026-12-01T13:00:00+11:00', endsAt: '2026-12-01T14:00:00+11:00' })).body.appointment;
    expect((await client.get(`/v1/appointments?leadId=${lead.id}`)).body).toEqual({ appointments: [moved], totalPages: 1, currentPage: 1, totalCount: 1, nextCursor: null });

    const patched = (await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED', companyId: company.id })).body.lead;
    expect(patched).toMatchObject({ status: 'CONTACTED', companyId: company.id });
    expect((await client.get(`/v1/leads?companyId=${company.id}&status=CONTACTED`)).body).toMatchObject({ totalCount: 1, leads: [{ id: lead.id }] });
    const activities = (await client.get(`/v1/leads/${lead.id}/activities`)).body;
    expect(activities.activities.map((activity: { event: string }) => activity.event)).toEqual(['STATUS_CHANGED', 'APPOINTMENT_RESCHEDULED', 'APPOINTMENT_BOOKED', 'LEAD_CREATED']);
    expect(activities.totalCount).toBe(4);

    expect((await client.get('/v1/organization')).body.organization.counts).toEqual({ leads: 1, members: 1, services: 0 });
  });
});

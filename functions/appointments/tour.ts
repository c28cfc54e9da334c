import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of appointments (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  // After leads, organization, services: it books the tour’s lead with its member, and holds a slot of its service.
  after: ['leads', 'organization', 'services'],
  stops: [
    {
      route: 'POST /v1/appointments',
      kind: 'create',
      exception: {
        reason: 'Reads the lead, the attendees and the overlapping bookings before one transaction writes the appointment, its bookings and its activity',
      },
      request: (s) => ({ method: 'POST', path: '/v1/appointments', body: { leadId: s.leadId, title: 'Quote visit', startsAt: '2026-12-01T09:00:00+11:00', endsAt: '2026-12-01T10:00:00+11:00', attendees: [{ userId: s.userId }] } }),
      keep: (b, s) => (s.appointmentId = b.appointment.id),
    },
    { route: 'GET /v1/appointments/{appointmentId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/appointments/${s.appointmentId}` }) },
    { route: 'PATCH /v1/appointments/{appointmentId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/appointments/${s.appointmentId}`, body: { startsAt: '2026-12-01T13:00:00Z', endsAt: '2026-12-01T14:00:00Z' } }) },
    { route: 'GET /v1/appointments', kind: 'list', request: () => ({ method: 'GET', path: '/v1/appointments' }) },
    // Two round trips: the organization, the service and the members; then the working members' bookings.
    { route: 'GET /v1/availability', kind: 'other', request: (s) => ({ method: 'GET', path: `/v1/availability?serviceId=${s.serviceId}&from=2027-01-04T00:00:00%2B11:00&to=2027-01-05T00:00:00%2B11:00` }) },
    { route: 'POST /v1/availability/holds', kind: 'other', request: (s) => ({ method: 'POST', path: '/v1/availability/holds', body: { serviceId: s.serviceId, startsAt: '2027-01-04T09:00:00+11:00', memberId: s.memberId, leadId: s.leadId } }), keep: (b, s) => (s.holdId = b.hold.id) },
    { route: 'GET /v1/availability/holds', kind: 'list', request: () => ({ method: 'GET', path: '/v1/availability/holds' }) },
    { route: 'POST /v1/appointments', kind: 'other', request: (s) => ({ method: 'POST', path: '/v1/appointments', body: { leadId: s.leadId, holdId: s.holdId } }) },
  ],
};

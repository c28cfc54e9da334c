import type { IsolationCases } from '#shared/resource';

/**
 * How each appointments route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  createAppointment: [
    { path: () => '/v1/appointments', body: (ids) => ({ leadId: ids.leadId, title: 'x', startsAt: '2027-01-01T09:00:00Z', endsAt: '2027-01-01T10:00:00Z' }), expect: 'not-found' },
  ],
  listAppointments: [{ path: (ids) => `/v1/appointments?leadId=${ids.leadId}`, expect: 'empty-list' }, { path: () => '/v1/appointments?from=2000-01-01T00:00:00Z', expect: 'empty-list' }],
  getAppointment: [{ path: (ids) => `/v1/appointments/${ids.appointmentId}`, expect: 'not-found' }],
  updateAppointment: [{ path: (ids) => `/v1/appointments/${ids.appointmentId}`, body: () => ({ status: 'CANCELLED' }), expect: 'not-found' }],
  findAvailability: [
    { path: (ids) => `/v1/availability?serviceId=${ids.serviceId}`, expect: 'not-found' },
  ],
  createHold: [
    { path: () => '/v1/availability/holds', body: (ids) => ({ serviceId: ids.serviceId, startsAt: '2027-01-04T09:00:00+11:00', memberId: ids.memberId, leadId: ids.leadId }), expect: 'not-found' },
  ],
  listHolds: 'No id enters: the list is the key’s organization’s own holds (functions/appointments/holds-list.test.ts lists one organization’s while another’s are live).',
};

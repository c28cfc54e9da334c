import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of receptionist (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  // After leads, inquiries, appointments: the caller is the tour’s lead, with its inquiries and appointments.
  after: ['leads', 'inquiries', 'appointments'],
  stops: [
    // Two round trips (functions/receptionist/callers.test.ts counts them): the organization, the lead by phone and its opt-out; then its inquiries and appointments.
    { route: 'GET /v1/callers/{phone}', kind: 'other', request: () => ({ method: 'GET', path: '/v1/callers/%2B61412555000' }) },
    // The organization and one Query per collection, all sent together (functions/receptionist/receptionist-context.test.ts).
    { route: 'GET /v1/receptionist/context', kind: 'other', request: () => ({ method: 'GET', path: '/v1/receptionist/context' }) },
  ],
};

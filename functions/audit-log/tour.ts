import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of audit-log (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    // The page and a COUNT of the window, together; the deletes before this stop wrote entries in their transactions.
    { route: 'GET /v1/audit-log', kind: 'list', request: () => ({ method: 'GET', path: '/v1/audit-log?resourceType=faq' }) },
  ],
};

import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of meta (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    { route: 'GET /openapi', kind: 'other', request: () => ({ method: 'GET', path: '/openapi' }) },
    { route: 'GET /docs', kind: 'other', request: () => ({ method: 'GET', path: '/docs' }) },
  ],
};

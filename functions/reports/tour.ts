import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of reports (test/support/route-tour.ts): one per route; the organization's item and the Query of its days, sent together. */
export const tour: ResourceTour = {
  stops: [
    { route: 'GET /v1/reports/summary', kind: 'list', request: () => ({ method: 'GET', path: '/v1/reports/summary' }) },
    { route: 'GET /v1/reports/timeseries', kind: 'list', request: () => ({ method: 'GET', path: '/v1/reports/timeseries?metric=leads.created&interval=week' }) },
    { route: 'GET /v1/reports/funnel', kind: 'list', request: () => ({ method: 'GET', path: '/v1/reports/funnel?from=2026-01-01&to=2026-12-31' }) },
    // A recount: its item and the organization's place in one transaction; read back once the worker has run it.
    { route: 'POST /v1/reports/rebuilds', kind: 'create', request: () => ({ method: 'POST', path: '/v1/reports/rebuilds' }), keep: (body, ctx) => (ctx.rebuildId = body.rebuild.id) },
    { route: 'GET /v1/reports/rebuilds/{rebuildId}', kind: 'read', afterQueues: true, request: (ctx) => ({ method: 'GET', path: `/v1/reports/rebuilds/${ctx.rebuildId}` }) },
  ],
};

import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of mcp (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    // Lists the tools: no table read (a tool call is a request of the API, toured at its own route).
    { route: 'POST /mcp', kind: 'other', request: () => ({ method: 'POST', path: '/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }) },
  ],
};

import type { ResourceTour } from '#shared/route-tour';

const CONTACT_SEARCH =
  'A lead is found by its email or phone through the contact’s claim (one consistent GetItem, which names the one lead that can hold it), then that lead (one GetItem): the leads carry no email or phone index, which would cost every lead write two more index copies';

/**
 * Activity ids are taken from blocks each container reserves (ACTIVITY_SEQUENCE in functions/leads/activity-store.ts).
 * The tour's routes share one process, one container: its first activity (the lead's create) pays for the block and
 * the later ones (a note, a status change, an appointment, an inquiry) take their ids with no call. In AWS every route
 * is a function of its own, so each pays one UpdateItem per block in each of its containers.
 */
const ACTIVITY_BLOCK =
  'The LEAD_CREATED activity’s integer id comes from the container’s block of activity ids: the organization’s first activity in a container reserves the block with one UpdateItem before the transaction, and the block’s other ids are taken with no call';

/** The route tour's requests of leads (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  // After companies: its companyId names the tour’s company.
  after: ['companies'],
  stops: [
    { route: 'POST /v1/leads', kind: 'create', exception: { reason: ACTIVITY_BLOCK }, request: (s) => ({ method: 'POST', path: '/v1/leads', body: { name: 'Tom Baker', email: 'tom@example.com', phone: '+61412555000', companyId: s.companyId } }), keep: (b, s) => (s.leadId = b.lead.id) },
    { route: 'GET /v1/leads/{leadId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/leads/${s.leadId}` }) },
    { route: 'PATCH /v1/leads/{leadId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/leads/${s.leadId}`, body: { status: 'CONTACTED' } }) },
    { route: 'GET /v1/leads', kind: 'list', request: () => ({ method: 'GET', path: '/v1/leads' }) },
    // Searches: by email or a phone with its country code, the contact's claim and then its lead.
    { route: 'GET /v1/leads', kind: 'list', exception: { reason: CONTACT_SEARCH }, request: () => ({ method: 'GET', path: '/v1/leads?q=TOM@example.com' }) },
    { route: 'GET /v1/leads', kind: 'list', exception: { reason: CONTACT_SEARCH }, request: () => ({ method: 'GET', path: '/v1/leads?phone=%2B61%20412%20555%20000' }) },
    {
      route: 'GET /v1/leads',
      kind: 'list',
      exception: { reason: `A national phone number (0412 555 000) is read with the country of the organization’s timezone: one GetItem of it, then as any phone. ${CONTACT_SEARCH}` },
      request: () => ({ method: 'GET', path: '/v1/leads?phone=0412%20555%20000' }),
    },
    {
      route: 'GET /v1/leads',
      kind: 'list',
      exception: { reason: 'A name search reads the name items of its prefix (one Query, which counts each lead once, exactly), then the page’s leads (one BatchGetItem): two calls, the second needing the ids of the first' },
      request: () => ({ method: 'GET', path: '/v1/leads?q=tom&status=CONTACTED' }),
    },
    { route: 'POST /v1/leads/upsert', kind: 'other', request: () => ({ method: 'POST', path: '/v1/leads/upsert', body: { match: 'email', email: 'tom@example.com', suburb: 'Glebe' } }) },
    { route: 'POST /v1/leads/{leadId}/activities', kind: 'create', request: (s) => ({ method: 'POST', path: `/v1/leads/${s.leadId}/activities`, body: { event: 'NOTE', data: 'Gate code is 4412.' } }) },
    { route: 'GET /v1/leads/{leadId}/activities', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/leads/${s.leadId}/activities` }) },
  ],
  last: [
    { route: 'DELETE /v1/leads/{leadId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/leads/${s.leadId}` }) },
  ],
};

import { SEQUENCE, type ResourceTour } from '../../shared/route-tour';

/** The route tour's requests of policies (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    { route: 'POST /v1/policies', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/policies', body: { title: 'Call-out fee', content: 'A $90 call-out fee applies.' } }), keep: (b, s) => (s.policyId = b.policy.id) },
    { route: 'PUT /v1/policies/{policyId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/policies/${s.policyId}`, body: { isActive: false } }) },
    { route: 'PATCH /v1/policies/{policyId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/policies/${s.policyId}`, body: { isActive: false } }) },
    { route: 'GET /v1/policies', kind: 'list', request: () => ({ method: 'GET', path: '/v1/policies' }) },
    { route: 'GET /v1/policies/{policyId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/policies/${s.policyId}` }) },
    { route: 'DELETE /v1/policies/{policyId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/policies/${s.policyId}` }) },
  ],
};

import { SEQUENCE, type ResourceTour } from '#shared/route-tour';

/** The route tour's requests of companies (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    { route: 'POST /v1/companies', kind: 'create', request: () => ({ method: 'POST', path: '/v1/companies', body: { name: 'Harbourside Strata' } }), keep: (b, s) => (s.companyId = b.company.id) },
    { route: 'GET /v1/companies/{companyId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/companies/${s.companyId}` }) },
    { route: 'PUT /v1/companies/{companyId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/companies/${s.companyId}`, body: { phone: '+61299551299' } }) },
    { route: 'PATCH /v1/companies/{companyId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/companies/${s.companyId}`, body: { phone: '+61299551299' } }) },
    { route: 'GET /v1/companies', kind: 'list', request: () => ({ method: 'GET', path: '/v1/companies' }) },
    { route: 'GET /v1/companies', kind: 'list', request: () => ({ method: 'GET', path: '/v1/companies?q=harbour' }) },
    { route: 'POST /v1/companies/{companyId}/notes', kind: 'create', exception: { reason: SEQUENCE }, request: (s) => ({ method: 'POST', path: `/v1/companies/${s.companyId}/notes`, body: { value: 'Gate code is 4412.' } }), keep: (b, s) => (s.noteId = b.note.id) },
    { route: 'GET /v1/companies/{companyId}/notes/{noteId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/companies/${s.companyId}/notes/${s.noteId}` }) },
    { route: 'PUT /v1/companies/{companyId}/notes/{noteId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/companies/${s.companyId}/notes/${s.noteId}`, body: { value: 'Gate code is 4413.' } }) },
    { route: 'PATCH /v1/companies/{companyId}/notes/{noteId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/companies/${s.companyId}/notes/${s.noteId}`, body: { value: 'Gate code is 4413.' } }) },
    { route: 'GET /v1/companies/{companyId}/notes', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/companies/${s.companyId}/notes` }) },
    { route: 'DELETE /v1/companies/{companyId}/notes/{noteId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/companies/${s.companyId}/notes/${s.noteId}` }) },
  ],
  last: [
    // With its one lead deleted, no lead points at the company any more.
    { route: 'DELETE /v1/companies/{companyId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/companies/${s.companyId}` }) },
  ],
};

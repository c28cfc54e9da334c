import { SEQUENCE, type ResourceTour } from '../../shared/route-tour';

/** The route tour's requests of faqs (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    { route: 'POST /v1/faqs', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/faqs', body: { question: 'Are you licensed?', answer: 'Yes.' } }), keep: (b, s) => (s.faqId = b.faq.id) },
    { route: 'PUT /v1/faqs/{faqId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/faqs/${s.faqId}`, body: { answer: 'Yes, licence 123456C.' } }) },
    { route: 'PATCH /v1/faqs/{faqId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/faqs/${s.faqId}`, body: { answer: 'Yes, licence 123456C.' } }) },
    { route: 'GET /v1/faqs', kind: 'list', request: () => ({ method: 'GET', path: '/v1/faqs' }) },
    { route: 'GET /v1/faqs/{faqId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/faqs/${s.faqId}` }) },
    { route: 'DELETE /v1/faqs/{faqId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/faqs/${s.faqId}` }) },
  ],
};

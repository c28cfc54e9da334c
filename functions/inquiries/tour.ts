import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of inquiries (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  // After leads: its lead is the tour’s.
  after: ['leads'],
  stops: [
    {
      route: 'POST /v1/inquiries',
      kind: 'create',
      exception: {
        reason: 'Finds the lead by the claim of its email or phone (one GetItem), then the lead the claim names (one GetItem), before the transaction that writes the inquiry beside it',
      },
      request: () => ({
        method: 'POST',
        path: '/v1/inquiries',
        body: {
          source: 'WEBFORM',
          lead: { email: 'tom@example.com' },
          summary: 'Leaking tap',
          data: {
            formName: 'Contact us',
            submittedAt: '2026-11-20T09:00:00Z',
            pageUrl: 'https://northside.example.com/contact',
            fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }],
          },
        },
      }),
      keep: (b, s) => (s.inquiryId = b.inquiry.id),
    },
    { route: 'GET /v1/inquiries/{inquiryId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/inquiries/${s.inquiryId}` }) },
    { route: 'PATCH /v1/inquiries/{inquiryId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/inquiries/${s.inquiryId}`, body: { isRead: true } }) },
    { route: 'GET /v1/inquiries', kind: 'list', request: () => ({ method: 'GET', path: '/v1/inquiries' }) },
  ],
};

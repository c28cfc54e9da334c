import { SEQUENCE, type ResourceTour } from '#shared/route-tour';

/** The phone of the tour's ADMIN, who signs in to the console on its tour (functions/sign-in/tour.ts): a number for fiction. */
export const TOUR_MEMBER_PHONE = '+61491570006';

/**
 * The tour organization's owner, made with it as `npm run admin -- org create --owner-phone` makes one: a member above
 * MEMBER is made by a person signed in, never by the key the tour calls with (test/support/route-tour.ts).
 */
export const TOUR_OWNER = { role: 'ADMIN', firstName: 'Kate', lastName: 'Nguyen', email: 'kate@northside.com.au', phone: TOUR_MEMBER_PHONE } as const;

/** The route tour's requests of organization (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    {
      route: 'POST /v1/organization/members',
      kind: 'create',
      exception: { reason: SEQUENCE },
      request: () => ({ method: 'POST', path: '/v1/organization/members', body: { email: 'tom@northside.com.au', firstName: 'Tom', lastName: 'Walsh', role: 'MEMBER', phone: '+61491570007' } }),
      keep: (b, s) => ((s.memberId = b.member.id), (s.userId = b.member.user.id)),
    },
    { route: 'PATCH /v1/organization/members/{memberId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/organization/members/${s.memberId}`, body: { position: 'Director', workingHours: { monday: [{ open: '07:00', close: '17:00' }] } } }) },
    { route: 'GET /v1/organization/members', kind: 'list', request: () => ({ method: 'GET', path: '/v1/organization/members' }) },
    { route: 'GET /v1/organization/members/{memberId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/organization/members/${s.memberId}` }) },
    { route: 'POST /v1/organization/invitations', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/organization/invitations', body: { email: 'liam@example.com', role: 'MEMBER', firstName: 'Liam' } }), keep: (b, s) => (s.invitationId = b.invitation.id) },
    { route: 'GET /v1/organization/invitations', kind: 'list', request: () => ({ method: 'GET', path: '/v1/organization/invitations' }) },
    { route: 'POST /v1/organization/invitations/{invitationId}/accept', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/organization/invitations/${s.invitationId}/accept`, body: { lastName: 'Kelly' } }) },
    { route: 'POST /v1/organization/invitations', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/organization/invitations', body: { email: 'ava@example.com', role: 'MEMBER' } }), keep: (b, s) => (s.cancelledInvitationId = b.invitation.id) },
    { route: 'DELETE /v1/organization/invitations/{invitationId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/organization/invitations/${s.cancelledInvitationId}` }) },
    { route: 'GET /v1/organization', kind: 'read', request: () => ({ method: 'GET', path: '/v1/organization' }) },
    { route: 'PATCH /v1/organization', kind: 'other', request: () => ({ method: 'PATCH', path: '/v1/organization', body: { timezone: 'Australia/Sydney' } }) },
    { route: 'GET /v1/organization/services', kind: 'list', request: () => ({ method: 'GET', path: '/v1/organization/services' }) },
  ],
  last: [
    // The member the accepted invitation made, after its organization's SMS and appointments.
    { route: 'DELETE /v1/organization/members/{memberId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/organization/members/${s.invitationId}` }) },
  ],
};

import type { IsolationCases, IsolationIdsOf } from '#shared/resource';

/**
 * How each organization route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  updateOrganizationMember: [{ path: (ids) => `/v1/organization/members/${ids.memberId}`, body: () => ({ isDisabled: true }), expect: 'not-found' }],
  getOrganizationMember: [{ path: (ids) => `/v1/organization/members/${ids.memberId}`, expect: 'not-found' }],
  deleteOrganizationMember: [{ path: (ids) => `/v1/organization/members/${ids.memberId}`, expect: 'not-found' }],
  deleteOrganizationInvitation: [{ path: (ids) => `/v1/organization/invitations/${ids.invitationId}`, expect: 'not-found' }],
  acceptOrganizationInvitation: [{ path: (ids) => `/v1/organization/invitations/${ids.invitationId}/accept`, body: () => ({ firstName: 'B', lastName: 'B' }), expect: 'not-found' }],
  getOrganization: 'the key’s own organization',
  updateOrganization: 'the key’s own organization',
  listOrganizationMembers: 'lists the caller’s members',
  createOrganizationMember: 'creates; references nothing',
  listOrganizationInvitations: 'lists the caller’s invitations',
  createOrganizationInvitation: 'creates; references nothing',
  listOrganizationServices: 'lists the caller’s services',
};

/** The demo's open invitation. */
export const isolationIds: IsolationIdsOf = async ({ client }) => ({ invitationId: (await client.get('/v1/organization/invitations')).body.invitations[0].id });

import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import { listServicesByCategory } from '../services/rules';
import { createMember, updateMember, inviteMember, acceptInvitation, readMember, removeMember, cancelInvitation } from './member-rules';
import { listMembersPage, listInvitationsPage } from './member-store';
import * as routes from './routes';
import { getOrganization, updateOrganization } from './store';
import { canonicalE164 } from '#shared/phone';
import { withPhoneRead } from '../leads/phones';

/** The handlers of the organization routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const getOrganizationHandler = apiHandler(routes.getOrganization, async ({ organizationId }) => ({ organization: await getOrganization(organizationId) }));

export const updateOrganizationHandler = apiHandler(routes.updateOrganization, async ({ body, organizationId }) => {
  // A number is stored in its one E.164 form (`+610299990000` is `+61299990000`), as a lead's phone is: replies name it so.
  await updateOrganization(organizationId, body.smsSenderId ? { ...body, smsSenderId: canonicalE164(body.smsSenderId) } : body);
  return { organization: await getOrganization(organizationId) };
});

export const listOrganizationMembersHandler = apiHandler(routes.listOrganizationMembers, async ({ query, organizationId }) =>
  pageEnvelope('members', await listMembersPage(organizationId, query)),
);

export const createOrganizationMemberHandler = apiHandler(routes.createOrganizationMember, async ({ body, organizationId }) => ({
  member: await createMember(organizationId, await withPhoneRead(organizationId, body)),
}));

export const getOrganizationMemberHandler = apiHandler(routes.getOrganizationMember, async ({ path, organizationId }) => ({ member: await readMember(organizationId, path.memberId) }));

export const deleteOrganizationMemberHandler = apiHandler(routes.deleteOrganizationMember, async ({ path, organizationId }) => {
  await removeMember(organizationId, path.memberId);
  return { success: true as const, id: path.memberId };
});

export const deleteOrganizationInvitationHandler = apiHandler(routes.deleteOrganizationInvitation, async ({ path, organizationId }) => {
  await cancelInvitation(organizationId, path.invitationId);
  return { success: true as const, id: path.invitationId };
});

export const updateOrganizationMemberHandler = apiHandler(routes.updateOrganizationMember, async ({ path, body, organizationId }) => ({
  member: await updateMember(organizationId, path.memberId, await withPhoneRead(organizationId, body)),
}));

export const listOrganizationInvitationsHandler = apiHandler(routes.listOrganizationInvitations, async ({ query, organizationId }) =>
  pageEnvelope('invitations', await listInvitationsPage(organizationId, query)),
);

export const createOrganizationInvitationHandler = apiHandler(routes.createOrganizationInvitation, async ({ body, organizationId }) => ({
  invitation: await inviteMember(organizationId, body),
}));

export const acceptOrganizationInvitationHandler = apiHandler(routes.acceptOrganizationInvitation, async ({ path, body, organizationId }) => ({
  member: await acceptInvitation(organizationId, path.invitationId, body),
}));

export const listOrganizationServicesHandler = apiHandler(routes.listOrganizationServices, async ({ organizationId }) => listServicesByCategory(organizationId));

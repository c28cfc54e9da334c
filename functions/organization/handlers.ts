import { apiHandler, type RawRequest } from '#shared/http/api-handler';
import { actingMemberOf, memberSessionOf, sessionRequired } from '#shared/http/member-session';
import { pageEnvelope } from '#shared/pagination';
import { listServicesByCategory } from '../services/rules';
import { createMember, updateMember, inviteMember, acceptInvitation, readMember, removeMember, cancelInvitation } from './member-rules';
import { listMembersPage, listInvitationsPage } from './member-store';
import * as routes from './routes';
import { getOrganization, updateOrganization } from './store';
import { countryCodeOf, toE164 } from '#shared/phone';
import { ValidationError } from '#shared/errors';
import { e164Of, withPhoneRead } from '../leads/phones';

/** The handlers of the organization routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const getOrganizationHandler = apiHandler(routes.getOrganization, async ({ organizationId }) => ({ organization: await getOrganization(organizationId) }));

/**
 * A sender id as stored: a number in its one E.164 form (`+61 2 9999 0620`, `(02) 9999 0620`, `+610299990620` are all
 * `+61299990620`), read as a lead's phone is, in the country the same PATCH sets if it sets one, so replies to the
 * number find the organization; an alphanumeric sender id as sent. A number no plan has answers 400 naming smsSenderId.
 */
async function senderIdOf(organizationId: string, text: string, country: string | undefined): Promise<string> {
  // The schema took letters and digits with a letter (a sender id), or a number's characters alone.
  if (/[A-Za-z]/.test(text)) return text;
  const newCountry = country === undefined ? undefined : countryCodeOf(country);
  const phone = newCountry ? ((await toE164(text, undefined)) ?? (await toE164(text, newCountry))) : await e164Of(organizationId, text, 'smsSenderId');
  if (!phone) throw new ValidationError([{ path: 'smsSenderId', message: `smsSenderId must be a valid phone number: with its country code (+61299990620), or in the national form of ${country}` }]);
  return phone;
}

export const updateOrganizationHandler = apiHandler(routes.updateOrganization, async ({ body, organizationId }) => {
  await updateOrganization(organizationId, body.smsSenderId ? { ...body, smsSenderId: await senderIdOf(organizationId, body.smsSenderId, body.country) } : body);
  return { organization: await getOrganization(organizationId) };
});

export const listOrganizationMembersHandler = apiHandler(routes.listOrganizationMembers, async ({ query, organizationId }) =>
  pageEnvelope('members', await listMembersPage(organizationId, query)),
);

/**
 * People are managed by people: giving a role above MEMBER, or changing a member's role or phone (where their sign-in
 * codes go), or enabling a disabled member, needs an ADMIN signed in (the routes already need an ADMIN); a key or grant,
 * which a leak or an assistant may hold, is refused 403 SESSION_REQUIRED.
 */
function byPeopleOnly(request: RawRequest, what: string | false): void {
  if (what && !memberSessionOf(request.authorizer)) throw sessionRequired(what);
}

export const createOrganizationMemberHandler = apiHandler(routes.createOrganizationMember, async ({ body, organizationId, request }) => {
  byPeopleOnly(request, body.role !== 'MEMBER' && `add a member as ${body.role}`);
  return { member: await createMember(organizationId, await withPhoneRead(organizationId, body)) };
});

export const getOrganizationMemberHandler = apiHandler(routes.getOrganizationMember, async ({ path, organizationId }) => ({ member: await readMember(organizationId, path.memberId) }));

export const deleteOrganizationMemberHandler = apiHandler(routes.deleteOrganizationMember, async ({ path, query, organizationId, request }) => {
  // The keys kept act for whoever removes the member from now on: their member, or the organization for its own key.
  const keepKeys = query.keepKeys?.split(',') ?? [];
  const keys = await removeMember(organizationId, path.memberId, { keepKeys, keptFor: actingMemberOf(request.authorizer) });
  return { success: true as const, id: path.memberId, ...keys };
});

export const deleteOrganizationInvitationHandler = apiHandler(routes.deleteOrganizationInvitation, async ({ path, organizationId }) => {
  await cancelInvitation(organizationId, path.invitationId);
  return { success: true as const, id: path.invitationId };
});

export const updateOrganizationMemberHandler = apiHandler(routes.updateOrganizationMember, async ({ path, body, organizationId, request }) => {
  const changed = (['role', 'phone'] as const).filter((field) => body[field] !== undefined);
  byPeopleOnly(request, changed.length > 0 ? `change a member’s ${changed.join(' or ')}` : body.isDisabled === false && 'enable a member');
  return { member: await updateMember(organizationId, path.memberId, await withPhoneRead(organizationId, body)) };
});

export const listOrganizationInvitationsHandler = apiHandler(routes.listOrganizationInvitations, async ({ query, organizationId }) =>
  pageEnvelope('invitations', await listInvitationsPage(organizationId, query)),
);

export const createOrganizationInvitationHandler = apiHandler(routes.createOrganizationInvitation, async ({ body, organizationId, request }) => {
  byPeopleOnly(request, body.role !== 'MEMBER' && `invite a member as ${body.role}`);
  return { invitation: await inviteMember(organizationId, body) };
});

export const acceptOrganizationInvitationHandler = apiHandler(routes.acceptOrganizationInvitation, async ({ path, body, organizationId, request }) => ({
  member: await acceptInvitation(organizationId, path.invitationId, body, undefined, { bySession: memberSessionOf(request.authorizer) !== undefined }),
}));

export const listOrganizationServicesHandler = apiHandler(routes.listOrganizationServices, async ({ organizationId }) => listServicesByCategory(organizationId));

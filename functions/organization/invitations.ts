import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listInvitationsPage } from '../../shared/repositories/members';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.listOrganizationInvitations, async ({ query, organizationId }) =>
  pageEnvelope('invitations', await listInvitationsPage(organizationId, query)),
);

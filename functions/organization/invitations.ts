import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listInvitationsPage } from './member-store';
import * as routes from './routes';

export const handler = apiHandler(routes.listOrganizationInvitations, async ({ query, organizationId }) =>
  pageEnvelope('invitations', await listInvitationsPage(organizationId, query)),
);

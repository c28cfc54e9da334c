import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listMembersPage } from '../../shared/repositories/members';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.listOrganizationMembers, async ({ query, organizationId }) =>
  pageEnvelope('members', await listMembersPage(organizationId, query)),
);

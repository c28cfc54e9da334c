import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listMembersPage } from './member-store';
import * as routes from './routes';

export const handler = apiHandler(routes.listOrganizationMembers, async ({ query, organizationId }) =>
  pageEnvelope('members', await listMembersPage(organizationId, query)),
);

import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listPoliciesPage } from '../../shared/repositories/policies';
import * as routes from '../../shared/routes/policies';

export const handler = apiHandler(routes.listPolicies, async ({ query, organizationId }) =>
  pageEnvelope('policies', await listPoliciesPage(organizationId, query)),
);

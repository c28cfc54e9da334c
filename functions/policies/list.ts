import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listPoliciesPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listPolicies, async ({ query, organizationId }) =>
  pageEnvelope('policies', await listPoliciesPage(organizationId, query)),
);

import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listCompaniesPage } from '../../shared/repositories/companies';
import * as routes from '../../shared/routes/companies';

export const handler = apiHandler(routes.listCompanies, async ({ query, organizationId }) =>
  pageEnvelope('companies', await listCompaniesPage(organizationId, query)),
);

import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listCompaniesPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listCompanies, async ({ query, organizationId }) =>
  pageEnvelope('companies', await listCompaniesPage(organizationId, query)),
);

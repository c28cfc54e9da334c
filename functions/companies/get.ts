import { apiHandler } from '../../shared/http/api-handler';
import { getCompany } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.getCompany, async ({ path, organizationId }) => ({
  company: await getCompany(organizationId, path.companyId),
}));

import { apiHandler } from '../../shared/http/api-handler';
import { getCompany } from '../../shared/repositories/companies';
import * as routes from '../../shared/routes/companies';

export const handler = apiHandler(routes.getCompany, async ({ path, organizationId }) => ({
  company: await getCompany(organizationId, path.companyId),
}));

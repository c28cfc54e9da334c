import { apiHandler } from '../../shared/http/api-handler';
import { updateCompany } from '../../shared/repositories/companies';
import * as routes from '../../shared/routes/companies';

export const handler = apiHandler(routes.updateCompany, async ({ path, body, organizationId }) => ({
  company: await updateCompany(organizationId, path.companyId, body),
}));

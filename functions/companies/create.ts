import { apiHandler } from '../../shared/http/api-handler';
import { createCompany } from '../../shared/repositories/companies';
import * as routes from '../../shared/routes/companies';

export const handler = apiHandler(routes.createCompany, async ({ body, organizationId }) => ({
  company: await createCompany(organizationId, body),
}));

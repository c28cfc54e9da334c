import { apiHandler } from '../../shared/http/api-handler';
import { updateCompany } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.updateCompany, async ({ path, body, organizationId }) => ({
  company: await updateCompany(organizationId, path.companyId, body),
}));

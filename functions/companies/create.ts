import { apiHandler } from '../../shared/http/api-handler';
import { createCompany } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.createCompany, async ({ body, organizationId }) => ({
  company: await createCompany(organizationId, body),
}));

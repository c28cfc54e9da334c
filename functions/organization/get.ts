import { apiHandler } from '../../shared/http/api-handler';
import { getOrganization } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.getOrganization, async ({ organizationId }) => ({ organization: await getOrganization(organizationId) }));

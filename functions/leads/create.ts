import { apiHandler } from '../../shared/http/api-handler';
import { createLead } from './rules';
import * as routes from './routes';

export const handler = apiHandler(routes.createLead, async ({ body, organizationId }) => ({
  lead: await createLead(organizationId, body),
}));

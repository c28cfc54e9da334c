import { updateLead } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.updateLead, async ({ path, body, organizationId }) => ({
  lead: await updateLead(organizationId, path.leadId, body),
}));

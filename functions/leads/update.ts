import { updateLead } from '../../shared/domain/leads';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/leads';

export const handler = apiHandler(routes.updateLead, async ({ path, body, organizationId }) => ({
  lead: await updateLead(organizationId, path.leadId, body),
}));

import { apiHandler } from '../../shared/http/api-handler';
import { createLead } from '../../shared/domain/leads';
import * as routes from '../../shared/routes/leads';

export const handler = apiHandler(routes.createLead, async ({ body, organizationId }) => ({
  lead: await createLead(organizationId, body),
}));

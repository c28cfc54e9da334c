import { apiHandler } from '../../shared/http/api-handler';
import { deleteLead } from '../../shared/repositories/leads';
import * as routes from '../../shared/routes/leads';

export const handler = apiHandler(routes.deleteLead, async ({ path, organizationId }) => {
  await deleteLead(organizationId, path.id);
  return { success: true, id: path.id };
});

import { NotFoundError } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { getLead } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.getLead, async ({ path, organizationId }) => {
  const lead = await getLead(organizationId, path.leadId);
  if (!lead) throw new NotFoundError('Lead not found');
  return { lead };
});

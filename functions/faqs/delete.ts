import { apiHandler } from '../../shared/http/api-handler';
import { deleteFaq } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.deleteFaq, async ({ path, organizationId }) => {
  await deleteFaq(organizationId, path.faqId);
  return { success: true as const, id: path.faqId };
});

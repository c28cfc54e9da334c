import { apiHandler } from '../../shared/http/api-handler';
import { deleteFaq } from '../../shared/repositories/faqs';
import * as routes from '../../shared/routes/faqs';

export const handler = apiHandler(routes.deleteFaq, async ({ path, organizationId }) => {
  await deleteFaq(organizationId, path.faqId);
  return { success: true as const, id: path.faqId };
});

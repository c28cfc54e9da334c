import { apiHandler } from '../../shared/http/api-handler';
import { updateFaq } from '../../shared/repositories/faqs';
import * as routes from '../../shared/routes/faqs';

export const handler = apiHandler(routes.updateFaq, async ({ path, body, organizationId }) => ({
  faq: await updateFaq(organizationId, path.faqId, body),
}));

import { apiHandler } from '../../shared/http/api-handler';
import { createFaq } from '../../shared/repositories/faqs';
import * as routes from '../../shared/routes/faqs';

export const handler = apiHandler(routes.createFaq, async ({ body, organizationId }) => ({
  faq: await createFaq(organizationId, body),
}));

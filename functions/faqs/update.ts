import { apiHandler } from '../../shared/http/api-handler';
import { updateFaq } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.updateFaq, async ({ path, body, organizationId }) => ({
  faq: await updateFaq(organizationId, path.faqId, body),
}));

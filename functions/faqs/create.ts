import { apiHandler } from '../../shared/http/api-handler';
import { createFaq } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.createFaq, async ({ body, organizationId }) => ({
  faq: await createFaq(organizationId, body),
}));

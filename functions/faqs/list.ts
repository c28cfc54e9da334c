import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listFaqsPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listFaqs, async ({ query, organizationId }) =>
  pageEnvelope('faqs', await listFaqsPage(organizationId, query)),
);

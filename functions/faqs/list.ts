import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listFaqsPage } from '../../shared/repositories/faqs';
import * as routes from '../../shared/routes/faqs';

export const handler = apiHandler(routes.listFaqs, async ({ query, organizationId }) =>
  pageEnvelope('faqs', await listFaqsPage(organizationId, query)),
);

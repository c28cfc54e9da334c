import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listInquiriesPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listInquiries, async ({ query, organizationId }) =>
  pageEnvelope('inquiries', await listInquiriesPage(organizationId, query)),
);

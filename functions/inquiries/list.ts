import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listInquiriesPage } from '../../shared/repositories/inquiries';
import * as routes from '../../shared/routes/inquiries';

export const handler = apiHandler(routes.listInquiries, async ({ query, organizationId }) =>
  pageEnvelope('inquiries', await listInquiriesPage(organizationId, query)),
);

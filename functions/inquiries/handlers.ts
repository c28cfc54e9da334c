import { Answer } from '#shared/http/answer';
import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import { ingestInquiry } from './ingestion';
import * as routes from './routes';
import { getInquiry, changeInquiry } from './store';
import { listInquiriesPage } from './list';

/** The handlers of the inquiries routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listInquiriesHandler = apiHandler(routes.listInquiries, async ({ query, organizationId }) =>
  pageEnvelope('inquiries', await listInquiriesPage(organizationId, query)),
);

export const getInquiryHandler = apiHandler(routes.getInquiry, async ({ path, organizationId }) => getInquiry(organizationId, path.inquiryId));

export const ingestInquiryHandler = apiHandler(routes.ingestInquiry, async ({ body, organizationId }) => {
  const { inquiry, created } = await ingestInquiry(organizationId, body);
  return created ? { inquiry } : new Answer(200, { inquiry });
});

export const updateInquiryHandler = apiHandler(routes.updateInquiry, async ({ path, body, organizationId }) => ({ inquiry: await changeInquiry(organizationId, path.inquiryId, body) }));

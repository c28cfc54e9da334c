import { apiHandler } from '../../shared/http/api-handler';
import { getInquiry } from '../../shared/repositories/inquiries';
import * as routes from '../../shared/routes/inquiries';

export const handler = apiHandler(routes.getInquiry, async ({ path, organizationId }) => getInquiry(organizationId, path.inquiryId));

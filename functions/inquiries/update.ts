import { apiHandler } from '../../shared/http/api-handler';
import { changeInquiry } from '../../shared/repositories/inquiries';
import * as routes from '../../shared/routes/inquiries';

export const handler = apiHandler(routes.updateInquiry, async ({ path, body, organizationId }) => ({ inquiry: await changeInquiry(organizationId, path.inquiryId, body) }));

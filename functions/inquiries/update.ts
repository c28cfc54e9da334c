import { apiHandler } from '../../shared/http/api-handler';
import { changeInquiry } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.updateInquiry, async ({ path, body, organizationId }) => ({ inquiry: await changeInquiry(organizationId, path.inquiryId, body) }));

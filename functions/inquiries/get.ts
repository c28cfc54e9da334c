import { apiHandler } from '../../shared/http/api-handler';
import { getInquiry } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.getInquiry, async ({ path, organizationId }) => getInquiry(organizationId, path.inquiryId));

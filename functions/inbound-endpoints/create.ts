import { createEndpoint } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.createInboundEndpoint, async ({ body, organizationId, request }) => ({ inboundEndpoint: await createEndpoint(organizationId, body, request.baseUrl) }));

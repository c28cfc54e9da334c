import { createEndpoint } from '../../shared/domain/inbound-endpoints';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/inbound-endpoints';

export const handler = apiHandler(routes.createInboundEndpoint, async ({ body, organizationId, request }) => ({ inboundEndpoint: await createEndpoint(organizationId, body, request.baseUrl) }));

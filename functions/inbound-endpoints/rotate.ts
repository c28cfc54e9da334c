import { rotateEndpoint } from '../../shared/domain/inbound-endpoints';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/inbound-endpoints';

export const handler = apiHandler(routes.rotateInboundEndpoint, async ({ path, organizationId, request }) => ({ inboundEndpoint: await rotateEndpoint(organizationId, path.inboundEndpointId, request.baseUrl) }));

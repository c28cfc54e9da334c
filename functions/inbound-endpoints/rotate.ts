import { rotateEndpoint } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.rotateInboundEndpoint, async ({ path, organizationId, request }) => ({ inboundEndpoint: await rotateEndpoint(organizationId, path.inboundEndpointId, request.baseUrl) }));

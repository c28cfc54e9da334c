import { apiHandler } from '../../shared/http/api-handler';
import { deleteInboundEndpoint } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.deleteInboundEndpoint, async ({ path, organizationId }) => {
  await deleteInboundEndpoint(organizationId, path.inboundEndpointId);
  return { success: true as const, id: path.inboundEndpointId };
});

import { apiHandler } from '../../shared/http/api-handler';
import { deleteInboundEndpoint } from '../../shared/repositories/inbound-endpoints';
import * as routes from '../../shared/routes/inbound-endpoints';

export const handler = apiHandler(routes.deleteInboundEndpoint, async ({ path, organizationId }) => {
  await deleteInboundEndpoint(organizationId, path.inboundEndpointId);
  return { success: true as const, id: path.inboundEndpointId };
});

import { publicEndpoint } from '../../shared/domain/inbound-endpoints';
import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listInboundEndpointsPage } from '../../shared/repositories/inbound-endpoints';
import * as routes from '../../shared/routes/inbound-endpoints';

export const handler = apiHandler(routes.listInboundEndpoints, async ({ query, organizationId }) => {
  const page = await listInboundEndpointsPage(organizationId, query);
  return pageEnvelope('inboundEndpoints', { ...page, items: page.items.map(publicEndpoint) });
});

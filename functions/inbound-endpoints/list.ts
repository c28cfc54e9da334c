import { publicEndpoint } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listInboundEndpointsPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listInboundEndpoints, async ({ query, organizationId }) => {
  const page = await listInboundEndpointsPage(organizationId, query);
  return pageEnvelope('inboundEndpoints', { ...page, items: page.items.map(publicEndpoint) });
});

import { receiveInbound } from '../inbound-endpoints/rules';
import { Answer } from '../../shared/http/answer';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../inbound-endpoints/routes';

export const handler = apiHandler(routes.receiveInbound, async ({ path, query, request }) => {
  const { inquiry, created } = await receiveInbound(path.inboundEndpointId, query.token, request.headers, request.body);
  return created ? { inquiry } : new Answer(200, { inquiry });
});

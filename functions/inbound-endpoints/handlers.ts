import { apiHandler } from '#shared/http/api-handler';
import { publicBaseUrl } from '#shared/http/base-url';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { answerPreflight } from './cors';
import { changeEndpoint, createEndpoint, publicEndpoint, readEndpoint, rotateEndpoint } from './rules';
import { listInboundEndpointsPage, deleteInboundEndpoint } from './store';

/** The handlers of the inbound-endpoints routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createInboundEndpointHandler = apiHandler(routes.createInboundEndpoint, async ({ body, organizationId, request }) => ({ inboundEndpoint: await createEndpoint(organizationId, body, publicBaseUrl(request.headers)) }));

export const listInboundEndpointsHandler = apiHandler(routes.listInboundEndpoints, async ({ query, organizationId }) => {
  const page = await listInboundEndpointsPage(organizationId, query);
  return pageEnvelope('inboundEndpoints', { ...page, items: page.items.map(publicEndpoint) });
});

export const getInboundEndpointHandler = apiHandler(routes.getInboundEndpoint, async ({ path, organizationId }) => ({ inboundEndpoint: await readEndpoint(organizationId, path.inboundEndpointId) }));

export const updateInboundEndpointHandler = apiHandler(routes.updateInboundEndpoint, async ({ path, body, organizationId }) => ({ inboundEndpoint: await changeEndpoint(organizationId, path.inboundEndpointId, body) }));

export const deleteInboundEndpointHandler = apiHandler(routes.deleteInboundEndpoint, async ({ path, organizationId }) => {
  await deleteInboundEndpoint(organizationId, path.inboundEndpointId);
  return { success: true as const, id: path.inboundEndpointId };
});

export const rotateInboundEndpointHandler = apiHandler(routes.rotateInboundEndpoint, async ({ path, organizationId, request }) => ({ inboundEndpoint: await rotateEndpoint(organizationId, path.inboundEndpointId, publicBaseUrl(request.headers)) }));

/**
 * A post's reading and ingestion (./receive.ts: the forms, the voice platforms' payloads, the inquiry and lead writes,
 * the numbering plans), loaded with import() at the function's first post, once per container: the endpoints'
 * settings routes share this module and never post, so their cold starts never parse it.
 */
let receiving: Promise<typeof import('./receive')> | undefined;
const receive = () => (receiving ??= import('./receive'));

/** Also answers the route's CORS preflight (OPTIONS), behind the same authorizer. */
export const receiveInboundHandler = apiHandler(routes.receiveInbound, async ({ path, query, request, organizationId }) =>
  request.method === 'OPTIONS'
    ? answerPreflight(organizationId, path.inboundEndpointId, query.token, request.headers)
    : (await receive()).receiveInbound(organizationId, path.inboundEndpointId, query.token, request.headers, request.body),
);

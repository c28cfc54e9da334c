import type { IsolationCases, IsolationIdsOf } from '#shared/resource';

/**
 * How each inbound-endpoints route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getInboundEndpoint: [{ path: (ids) => `/v1/inbound-endpoints/${ids.inboundEndpointId}`, expect: 'not-found' }],
  updateInboundEndpoint: [{ path: (ids) => `/v1/inbound-endpoints/${ids.inboundEndpointId}`, body: () => ({ name: 'Taken' }), expect: 'not-found' }],
  deleteInboundEndpoint: [{ path: (ids) => `/v1/inbound-endpoints/${ids.inboundEndpointId}`, expect: 'not-found' }],
  rotateInboundEndpoint: [{ path: (ids) => `/v1/inbound-endpoints/${ids.inboundEndpointId}/rotate`, expect: 'not-found' }],
  createInboundEndpoint: 'creates; references nothing',
  listInboundEndpoints: 'lists the caller’s inbound endpoints',
};

/** The demo makes no endpoint: one of A's own. */
export const isolationIds: IsolationIdsOf = async ({ client }) => ({
  inboundEndpointId: (await client.post('/v1/inbound-endpoints', { name: 'Form', source: 'WEBFORM' })).body.inboundEndpoint.id,
});

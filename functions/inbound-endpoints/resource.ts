import { defineResource } from '../../shared/resource';
import { inboundEndpointRoutes } from './routes';
import { inboundEndpointKeys, inboundEndpointKeySamples } from './entity';
import { changes } from './changes';

export const inboundEndpoints = defineResource({
  name: 'inbound-endpoints',
  tags: { Inbound: 'URLs that web forms, email parsers and call or chat agents post inquiries to, with a token or a Standard Webhooks signature instead of an API key.' },
  routes: inboundEndpointRoutes,
  // Finds the endpoint by the path's id, so its organization's usage plan meters the public route.
  authorizers: { inboundEndpoint: 'authorizer' },
  ...changes,
  keys: [{ builders: inboundEndpointKeys, samples: inboundEndpointKeySamples }],
});

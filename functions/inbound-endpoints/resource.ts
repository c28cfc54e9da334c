import { defineResource } from '../../shared/resource';
import { inboundEndpointRoutes } from './routes';

export const inboundEndpoints = defineResource({
  name: 'inbound-endpoints',
  tags: { Inbound: 'URLs that web forms, email parsers and call or chat agents post inquiries to, with a token or a Standard Webhooks signature instead of an API key.' },
  routes: inboundEndpointRoutes,
});

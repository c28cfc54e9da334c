import { defineResource, namedComponents } from '#shared/resource';
import { described } from '#shared/routes/described';
import { IngestedInquiry } from '../inquiries/ingestion-schema';
import { inboundEndpointRoutes, receiveInbound } from './routes';
import { INBOUND_POST_BODIES } from './post-bodies';
import { inboundEndpointKeys, inboundEndpointKeySamples } from './entity';
import { changes } from './changes';
import { InboundSourceLimited } from './schema';

export const inboundEndpoints = defineResource({
  name: 'inbound-endpoints',
  tags: { Inbound: 'URLs that web forms, email parsers and call or chat agents post inquiries to, with a token or a Standard Webhooks signature instead of an API key.' },
  // The post's bodies and answer, as the document shows them: no function of these routes parses them.
  routes: inboundEndpointRoutes.map((route) => (route === receiveInbound ? described(receiveInbound, { requestBodies: INBOUND_POST_BODIES, response: IngestedInquiry }) : route)),
  // Who and what reaches the organization: an admin's alone, read or changed (shared/member-roles.ts).
  sessionRoles: { read: 'ADMIN', write: 'ADMIN' },
  // Finds the endpoint by the path's id (one Query on gsi1), so its organization's usage plan meters the public route.
  // Not cached: its answer depends on the endpoint id, and a cached answer keyed by anything else could meter one
  // organization's posts against another's plan.
  authorizers: {
    inboundEndpoint: {
      functionName: 'InboundAuthorizer',
      handler: 'authorizer',
      // The endpoint by id, then the source's counter of the day, and once a source's day the endpoint's mark that tells the organization (source-share.ts).
      dynamodb: ['Query', 'UpdateItem'],
      indexes: ['gsi1'],
      keys: ['INBOUND#*', 'SOURCELIMIT#*', 'ORG#*'],
      callers:
        'Senders are web forms and email parsers holding an inbound endpoint’s token or signing secret, which the function checks; the Lambda REQUEST authorizer names the endpoint’s organization for its usage plan.',
    },
  },
  components: namedComponents({ InboundSourceLimited }, { inboundSourceLimited: { inboundEndpointId: 'inbound_01JD4K7M9P2R4T6V8X0Z2B4D6F', source: '203.0.113.7', limit: 500, until: '2026-11-21T00:00:00.000Z', createdAt: '2026-11-20T03:12:44.018Z' } }),
  ...changes,
  keys: [{ builders: inboundEndpointKeys, samples: inboundEndpointKeySamples }],
});

import { Duration, type Stack } from 'aws-cdk-lib';
import { IdentitySource, RequestAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import { AUTHORIZER_HANDLERS } from '../../../functions/resources';
import { authorizerOf, type AuthorizerKind, type RouteDefinition } from '../../../shared/routes/route';
import type { Monitoring } from '../monitoring';
import type { DeploymentOptions } from '../options';
import { ApiFunction, type ApiFunctionProps } from '../service-function';

export interface AuthorizerProps {
  routes: readonly RouteDefinition[];
  options: DeploymentOptions;
  monitoring: Monitoring;
  /** What every API function shares: the table, logging, architecture, the canary's application and role. */
  functionDefaults: Pick<ApiFunctionProps, 'table' | 'logLevel' | 'debugSampleRate' | 'architecture' | 'deployments' | 'deploymentRole'>;
}

/**
 * The gateway's REQUEST authorizers, each with its function, in the parent stack (every route stack's methods name
 * them). Answers them by kind, with what each is as plain data for the stage's deployment.
 */
export function createAuthorizers(stack: Stack, { routes, options, monitoring, functionDefaults }: AuthorizerProps) {
  const authorizers: Partial<Record<AuthorizerKind, RequestAuthorizer>> = {};
  const ttl = options.authorizerCacheTtlSeconds;
  const authorizerFunction = new ApiFunction(stack, 'Authorizer', {
    ...functionDefaults,
    handler: AUTHORIZER_HANDLERS.apiKey,
    dynamodb: ['Query', 'GetItem', 'UpdateItem'],
    indexes: ['gsi1'],
    // Every keyed request needs it (on a cache miss): kept free of any burst elsewhere in the account.
    reservedConcurrency: options.concurrency.authorizer,
    rollbackAlarms: (target) => monitoring.watchFunction(stack, 'Authorizer', target, { authorizer: 'apiKey' }),
  });
  authorizers.apiKey = new RequestAuthorizer(stack, 'ApiKeyAuthorizer', {
    handler: authorizerFunction.alias,
    identitySources: [IdentitySource.header('Authorization')],
    resultsCacheTtl: Duration.seconds(ttl),
  });
  // A post to an inbound URL has no API key: this authorizer names the endpoint's organization (usageIdentifierKey)
  // from the path's id, so the organization's usage plan meters it. Not cached (no identity source): its answer
  // depends on the endpoint id, and a cached answer keyed by anything else could meter one organization's posts
  // against another's plan. It costs one Query on gsi1 per post. (An authorizer no method uses cannot deploy.)
  if (routes.some((route) => authorizerOf(route) === 'inboundEndpoint')) {
    const inboundAuthorizerFunction = new ApiFunction(stack, 'InboundAuthorizer', {
      ...functionDefaults,
      handler: AUTHORIZER_HANDLERS.inboundEndpoint,
      dynamodb: ['Query'],
      indexes: ['gsi1'],
      rollbackAlarms: (target) => monitoring.watchFunction(stack, 'InboundAuthorizer', target, { authorizer: 'inboundEndpoint' }),
    });
    authorizers.inboundEndpoint = new RequestAuthorizer(stack, 'InboundEndpointAuthorizer', {
      handler: inboundAuthorizerFunction.alias,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });
  }
  return { authorizers, made: Object.keys(authorizers).map((kind) => ({ authorizer: kind, cacheTtlSeconds: kind === 'apiKey' ? ttl : 0 })) };
}

import { Duration, type Stack } from 'aws-cdk-lib';
import { IdentitySource, RequestAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import { AUTHORIZERS } from '../../../functions/resources';
import { authorizerOf, type AuthorizerKind, type RouteDefinition } from '#shared/routes/route';
import { BASE_URL_VARIABLE } from '#shared/http/base-url';
import type { Monitoring } from '../monitoring';
import type { DeploymentOptions } from '../options';
import { ApiFunction, type ApiFunctionProps } from '../service-function';

export interface AuthorizerProps {
  routes: readonly RouteDefinition[];
  options: DeploymentOptions;
  monitoring: Monitoring;
  /** What every API function shares: the table, logging, architecture, the canary's application and role. */
  functionDefaults: Pick<ApiFunctionProps, 'table' | 'logLevel' | 'debugSampleRate' | 'architecture' | 'deployments' | 'deploymentRole'>;
  /** The API's URL: an OAuth access token's audience is checked against its `/mcp` (functions/oauth/authorize-token.ts). */
  baseUrl: string;
}

/** A gateway authorizer, with who calls the routes behind it (for cdk-nag). */
export interface GatewayAuthorizer {
  authorizer: RequestAuthorizer;
  callers: string;
}

/** `inboundEndpoint` → `InboundEndpoint`. */
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The gateway's REQUEST authorizers that some route uses (an authorizer no method uses cannot deploy), each with its
 * function, in the parent stack: every route stack's methods name them. Answers them by name, with what each is as
 * plain data for the stage's deployment. One with an identity header is cached per value for the authorizer cache TTL;
 * one without runs on every request.
 */
export function createAuthorizers(stack: Stack, { routes, options, monitoring, functionDefaults, baseUrl }: AuthorizerProps) {
  const authorizers: Record<AuthorizerKind, GatewayAuthorizer> = {};
  const made: unknown[] = [];
  for (const [name, definition] of Object.entries(AUTHORIZERS)) {
    if (!routes.some((route) => authorizerOf(route) === name)) continue;
    const { functionName, handler, dynamodb, indexes, keys, identityHeader, reserved, callers } = definition;
    const authorizerFunction = new ApiFunction(stack, functionName, {
      ...functionDefaults,
      handler,
      dynamodb,
      indexes,
      keys,
      reservedConcurrency: reserved ? options.concurrency.authorizer : undefined,
      environment: { [BASE_URL_VARIABLE]: baseUrl },
      rollbackAlarms: (target) => monitoring.watchFunction(stack, functionName, target, { authorizer: name }),
    });
    const cacheTtlSeconds = identityHeader ? options.authorizerCacheTtlSeconds : 0;
    const authorizer = new RequestAuthorizer(stack, `${pascal(name)}Authorizer`, {
      handler: authorizerFunction.alias,
      identitySources: identityHeader ? [IdentitySource.header(identityHeader)] : [],
      resultsCacheTtl: Duration.seconds(cacheTtlSeconds),
    });
    authorizers[name] = { authorizer, callers };
    made.push({ authorizer: name, handler, identityHeader, cacheTtlSeconds });
  }
  return { authorizers, made };
}

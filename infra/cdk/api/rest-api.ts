import { DEPLOYED_STAGE } from '#shared/auth/authorizer-cache-flush';
import { ArnFormat, CfnOutput, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  Deployment,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
  Stage,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnSamplingRule } from 'aws-cdk-lib/aws-xray';
import type { IDependable } from 'constructs';
import { createHash } from 'node:crypto';
import { GATEWAY_RESPONSES, gatewayResponseBody, type GatewayResponse } from '#shared/http/gateway-responses';
import type { RouteDefinition } from '#shared/routes/route';
import { unauthorizedChallenge } from '../../../functions/oauth/metadata';
import type { DeploymentOptions } from '../options';

/**
 * What the access log keeps of each request: enough to find one tenant's request from a support ticket.
 * organizationId and keyId come from the authorizer's context.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: AccessLogField.contextRequestId(),
  extendedRequestId: AccessLogField.contextExtendedRequestId(),
  requestTime: AccessLogField.contextRequestTime(),
  organizationId: AccessLogField.contextAuthorizer('organizationId'),
  keyId: AccessLogField.contextAuthorizer('keyId'),
  principalId: AccessLogField.contextAuthorizerPrincipalId(),
  method: AccessLogField.contextHttpMethod(),
  route: AccessLogField.contextResourcePath(),
  path: AccessLogField.contextPath(),
  status: AccessLogField.contextStatus(),
  latencyMs: AccessLogField.contextResponseLatency(),
  integrationLatencyMs: AccessLogField.contextIntegrationLatency(),
  integrationStatus: AccessLogField.contextIntegrationStatus(),
  authorizerError: AccessLogField.contextAuthorizerError(),
  error: AccessLogField.contextErrorMessage(),
  errorType: AccessLogField.contextErrorResponseType(),
  sourceIp: AccessLogField.contextIdentitySourceIp(),
  userAgent: AccessLogField.contextIdentityUserAgent(),
  responseLength: AccessLogField.contextResponseLength(),
} as const;

/** The API's one stage (the admin CLI names it when it flushes the stage's authorizer cache). */
export const STAGE_NAME = DEPLOYED_STAGE;

/** The methods a route's function answers on its path: its own, and OPTIONS when it answers its CORS preflight. */
export const methodsOf = (route: RouteDefinition): string[] => [route.method, ...(route.preflight ? ['OPTIONS'] : [])];

/**
 * The REST API itself, with no deployment of its own: its methods live in the route stacks, so the stage's deployment
 * is made once they all exist (`deployStage`).
 */
export function createRestApi(stack: Stack): RestApi {
  const api = new RestApi(stack, 'Api', {
    restApiName: 'sales-pipeline',
    description: 'Sales pipeline API',
    cloudWatchRole: true,
    // Usage plans meter organizations, not callers: the authorizer names the key (usageIdentifierKey).
    apiKeySourceType: ApiKeySourceType.AUTHORIZER,
    // A function's base64 answer (the reference page's gzipped script) goes out as bytes only when the request's
    // first Accept type is listed, and a browser asks for a script with Accept: */*. The price: every request
    // body reaches its function base64-encoded, which the handlers decode (the local gateway does the same). So a
    // multipart/form-data post reaches the inbound function byte for byte, never mapped or re-encoded.
    binaryMediaTypes: ['*/*'],
    // REGIONAL: the console's distribution is the API's edge. An EDGE endpoint would put a second, AWS-managed
    // CloudFront between the two, which neither writes the viewer's address nor lets the firewall see it.
    endpointConfiguration: { types: [EndpointType.REGIONAL] },
    deploy: false,
  });
  Validations.of(api).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    reason: 'The AWS managed role lets API Gateway write the stage execution and access logs, and nothing else.',
  });
  Validations.of(api).acknowledge({
    id: 'AwsSolutions-APIG2',
    reason: 'Every function validates path, query and body with the same valibot schemas the OpenAPI document is built from.',
  });
  return api;
}

export interface StageProps {
  routes: readonly RouteDefinition[];
  options: DeploymentOptions;
  /** What every method of the API is, as plain data: the deployment is replaced when any of it changes. */
  methods: readonly unknown[];
  /** What holds the methods (the route stacks): the deployment is made after them. */
  after: readonly IDependable[];
  /** The stage's variables, which API Gateway gives every authorizer and function. */
  variables: Record<string, string>;
}

/**
 * The `prod` stage and the deployment it serves, made after every method (in whichever stack it is): the stage's
 * throttle, per-route throttles, access log, tracing and its X-Ray sampling rule. Ids as RestApi's own deployment
 * names them, so the stage is the same resource it always was.
 */
export function deployStage(api: RestApi, { routes, options, methods, after, variables }: StageProps): Stage {
  const stack = Stack.of(api);
  const deployment = new Deployment(api, 'Deployment', { api, description: 'Every method of the API, in this stack and the route stacks' });
  // As RestApi's own deployment hashes its methods: a changed method makes a new deployment, which the stage then serves.
  deployment.addToLogicalId({ methods: createHash('sha256').update(JSON.stringify(methods)).digest('hex') });
  for (const dependable of after) deployment.node.addDependency(dependable);
  const stage = new Stage(api, `DeploymentStage.${STAGE_NAME}`, {
    deployment,
    stageName: STAGE_NAME,
    variables,
    // The whole API's ceiling, above any one organization's usage plan: it protects the table and the bill.
    throttlingRateLimit: options.throttle.rateLimit,
    throttlingBurstLimit: options.throttle.burstLimit,
    tracingEnabled: true,
    loggingLevel: MethodLoggingLevel.ERROR,
    accessLogDestination: new LogGroupLogDestination(new LogGroup(stack, 'AccessLogs', { retention: RetentionDays.ONE_MONTH })),
    accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
    // Routes with a throttle of their own (the public inbound route): one noisy sender cannot starve the API.
    // A route's CORS preflight (OPTIONS) reaches the same function, so it has the same throttle.
    methodOptions: Object.fromEntries(
      routes
        .filter((route) => route.throttle)
        .flatMap((route) => methodsOf(route).map((method) => [`${route.path}/${method}`, { throttlingRateLimit: route.throttle!.rateLimit, throttlingBurstLimit: route.throttle!.burstLimit }])),
    ),
  });
  api.deploymentStage = stage;
  new CfnOutput(api, 'Endpoint', { value: stage.urlForPath() });
  addTraceSampling(api, options.traceSampleRate);
  return stage;
}

/**
 * X-Ray's default rule traces the first request of each second and 5 % of the rest: at low traffic, every request
 * ($5 a million). This rule, matched first, traces a fixed share of the stage's requests and none as of right; the
 * functions follow the stage's decision.
 */
function addTraceSampling(api: RestApi, fixedRate: number): void {
  const stack = Stack.of(api);
  new CfnSamplingRule(stack, 'TraceSampling', {
    samplingRule: {
      ruleName: `${stack.node.addr.slice(0, 20)}-api`,
      priority: 100,
      fixedRate,
      reservoirSize: 0,
      serviceName: '*',
      serviceType: 'AWS::ApiGateway::Stage',
      host: '*',
      httpMethod: '*',
      urlPath: '*',
      resourceArn: stack.formatArn({ service: 'apigateway', account: '', resource: `/restapis/${api.restApiId}/stages/${STAGE_NAME}`, arnFormat: ArnFormat.NO_RESOURCE_NAME }),
      version: 1,
    },
  });
}

/**
 * API Gateway's own answers (a refused key, a throttle, an unknown path …) in the API's envelope, with its headers; the
 * 401's WWW-Authenticate names the MCP server's OAuth metadata at `baseUrl`, the deployed API's.
 */
export function addGatewayResponses(api: RestApi, baseUrl: string): void {
  for (const gateway of Object.values(GATEWAY_RESPONSES) as GatewayResponse[]) {
    const response = gateway.type === 'UNAUTHORIZED' ? { ...gateway, headers: { ...gateway.headers, 'WWW-Authenticate': unauthorizedChallenge(baseUrl) } } : gateway;
    api.addGatewayResponse(response.type, {
      type: ResponseType.of(response.type),
      statusCode: String(response.status),
      responseHeaders: {
        'Content-Type': "'application/json'",
        'Cache-Control': "'no-store'",
        'X-Content-Type-Options': "'nosniff'",
        ...Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, value]) => [name, `'${value}'`])),
      },
      templates: { 'application/json': JSON.stringify(gatewayResponseBody(response)) },
    });
  }
}

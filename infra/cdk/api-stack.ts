import { ArnFormat, CfnOutput, Duration, NestedStack, Stack, STACK_RESOURCE_LIMIT_CONTEXT, Token, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  DomainName,
  EndpointType,
  SecurityPolicy,
  AuthorizationType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  ContentHandling,
  Period,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { CfnSamplingRule } from 'aws-cdk-lib/aws-xray';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ParamsAndSecretsLayerVersion, ParamsAndSecretsLogLevel, ParamsAndSecretsVersions } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { USAGE_PLANS } from '../../shared/auth/usage-plans';
import { GATEWAY_RESPONSES, gatewayResponseBody, methodNotAllowed, type GatewayResponse } from '../../shared/http/gateway-responses';
import { NO_STORE_HEADERS } from '../../shared/http/envelope';
import { BASE_URL_VARIABLE } from '../../shared/http/base-url';
import { authorizerOf, grantedActions, handlerOf, routeId, type AuthorizerKind, type RouteDefinition } from '../../shared/routes/route';
import { AUTHORIZER_HANDLERS } from '../../functions/resources';
import { ApiFunction } from './service-function';
import { deliveryQueueNames, smsConfigurationSetName } from './events-stack';
import { Firewall } from './firewall';
import { Monitoring } from './monitoring';
import type { DeploymentOptions } from './options';

export interface ApiStackProps extends StackProps {
  routes: RouteDefinition[];
  options: DeploymentOptions;
}

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

export const STAGE_NAME = 'prod';

/** The methods a route's function answers on its path: its own, and OPTIONS when it answers its CORS preflight. */
const methodsOf = (route: RouteDefinition): string[] => [route.method, ...(route.preflight ? ['OPTIONS'] : [])];

/**
 * The stateless part: the REST API, its authorizer and one function per row of the route table.
 * The functions of each tag live in a nested stack: with their aliases, canaries and alarms, one stack
 * would pass CloudFormation's 500 resources.
 */
export class ApiStack extends Stack {
  readonly api: RestApi;
  /** One nested stack per tag, holding that tag's functions. */
  readonly functionStacks = new Map<string, NestedStack>();

  constructor(scope: Construct, id: string, { routes, options, ...props }: ApiStackProps) {
    super(scope, id, props);
    // The template for sam local holds every function (see samLocal); it is never deployed, so CloudFormation's 500 does not apply.
    if (options.samLocal) this.node.setContext(STACK_RESOURCE_LIMIT_CONTEXT, 0);
    // By name, not by a cross-stack export: the template stays self-contained (sam local can run it).
    const table = TableV2.fromTableName(this, 'Table', options.tableName);

    this.api = new RestApi(this, 'Api', {
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
      deployOptions: {
        stageName: STAGE_NAME,
        // The whole API's ceiling, above any one organization's usage plan: it protects the table and the bill.
        throttlingRateLimit: options.throttle.rateLimit,
        throttlingBurstLimit: options.throttle.burstLimit,
        tracingEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        accessLogDestination: new LogGroupLogDestination(new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH })),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        // Routes with a throttle of their own (the public inbound route): one noisy sender cannot starve the API.
        // A route's CORS preflight (OPTIONS) reaches the same function, so it has the same throttle.
        methodOptions: Object.fromEntries(
          routes
            .filter((route) => route.throttle)
            .flatMap((route) => methodsOf(route).map((method) => [`${route.path}/${method}`, { throttlingRateLimit: route.throttle!.rateLimit, throttlingBurstLimit: route.throttle!.burstLimit }])),
        ),
      },
    });

    // X-Ray's default rule traces the first request of each second and 5 % of the rest: at low traffic, every request
    // ($5 a million). This rule, matched first, traces a fixed share of the stage's requests and none as of right; the
    // functions follow the stage's decision.
    new CfnSamplingRule(this, 'TraceSampling', {
      samplingRule: {
        ruleName: `${this.node.addr.slice(0, 20)}-api`,
        priority: 100,
        fixedRate: options.traceSampleRate,
        reservoirSize: 0,
        serviceName: '*',
        serviceType: 'AWS::ApiGateway::Stage',
        host: '*',
        httpMethod: '*',
        urlPath: '*',
        resourceArn: Stack.of(this).formatArn({ service: 'apigateway', account: '', resource: `/restapis/${this.api.restApiId}/stages/${STAGE_NAME}`, arnFormat: ArnFormat.NO_RESOURCE_NAME }),
        version: 1,
      },
    });

    for (const response of Object.values(GATEWAY_RESPONSES) as GatewayResponse[]) {
      this.api.addGatewayResponse(response.type, {
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

    const monitoring = new Monitoring(this, 'Monitoring', { api: this.api, table, alarmEmails: options.alarmEmails });
    const deployments = new LambdaApplication(this, 'Deployments');
    const deploymentRole = new Role(this, 'DeploymentRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
    });
    Validations.of(deploymentRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason: "AWS's managed policy for CodeDeploy shifting Lambda aliases: it updates aliases and reads the rollback alarms, nothing else.",
    });
    // Signs list cursors (shared/store/cursors.ts). The functions are given its ARN, never its value: they read it at
    // run time through the Parameters and Secrets extension (its own cache off), and again every 5 minutes, so a
    // replaced key takes over without a deploy and the previous one still verifies (shared/store/cursor-keys.ts).
    const cursorKey = new Secret(this, 'CursorSigningKey', {
      description: 'Signs the pagination cursors of the sales pipeline API',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(cursorKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'It signs pagination cursors, which live minutes: it is replaced by hand (put-secret-value, docs/operations.md) rather than on a schedule; the functions read the new value within 5 minutes and still verify the previous one.',
    });
    // `sam local` declares the variable for --env-vars to fill with npm start's key: it cannot run the extension.
    const cursorKeyAccess: { environment: Record<string, string>; paramsAndSecrets?: ParamsAndSecretsLayerVersion } = options.samLocal
      ? { environment: { CURSOR_SECRET: '' } }
      : {
          environment: { CURSOR_SECRET_ARN: cursorKey.secretArn },
          paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, { cacheEnabled: false, logLevel: ParamsAndSecretsLogLevel.WARN }),
        };
    // Where the API is, for the URLs answers name and the MCP server's tool calls (shared/http/base-url.ts): never the
    // request's Host. The custom domain, else the stage's URL built from the API's id: the stage's own URL (api.url)
    // would make each function depend on the deployment, which depends on the functions' methods, a cycle.
    const baseUrlEnvironment = { [BASE_URL_VARIABLE]: options.customDomain ? `https://${options.customDomain.domainName}` : `https://${this.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${STAGE_NAME}` };
    const functionDefaults = { table, logLevel: options.logLevel, debugSampleRate: options.debugSampleRate, architecture: options.architecture, deployments, deploymentRole };

    const authorizerFunction = new ApiFunction(this, 'Authorizer', {
      ...functionDefaults,
      handler: AUTHORIZER_HANDLERS.apiKey,
      dynamodb: ['Query', 'GetItem', 'UpdateItem'],
      indexes: ['gsi1'],
      // Every keyed request needs it (on a cache miss): kept free of any burst elsewhere in the account.
      reservedConcurrency: options.concurrency.authorizer,
      rollbackAlarms: (target) => monitoring.watchFunction(this, 'Authorizer', target, { authorizer: 'apiKey' }),
    });
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction.alias,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(options.authorizerCacheTtlSeconds),
    });
    const authorizers: Partial<Record<AuthorizerKind, RequestAuthorizer>> = { apiKey: authorizer };
    // A post to an inbound URL has no API key: this authorizer names the endpoint's organization (usageIdentifierKey)
    // from the path's id, so the organization's usage plan meters it. Not cached (no identity source): its answer
    // depends on the endpoint id, and a cached answer keyed by anything else could meter one organization's posts
    // against another's plan. It costs one Query on gsi1 per post. (An authorizer no method uses cannot deploy.)
    if (routes.some((route) => authorizerOf(route) === 'inboundEndpoint')) {
      const inboundAuthorizerFunction = new ApiFunction(this, 'InboundAuthorizer', {
        ...functionDefaults,
        handler: AUTHORIZER_HANDLERS.inboundEndpoint,
        dynamodb: ['Query'],
        indexes: ['gsi1'],
        rollbackAlarms: (target) => monitoring.watchFunction(this, 'InboundAuthorizer', target, { authorizer: 'inboundEndpoint' }),
      });
      authorizers.inboundEndpoint = new RequestAuthorizer(this, 'InboundEndpointAuthorizer', {
        handler: inboundAuthorizerFunction.alias,
        identitySources: [],
        resultsCacheTtl: Duration.seconds(0),
      });
    }

    // A PATCH alias (aliasOf) is answered by its PUT's function: one function per handler.
    const functionsByHandler = new Map<string, ApiFunction>();
    for (const route of routes) {
      // sam local reads one template: it cannot follow a nested stack's outputs to the function behind a route.
      const scope = options.samLocal ? this : (this.functionStacks.get(route.tag) ?? new NestedStack(this, `${route.tag}Functions`, { description: `The ${route.tag} functions` }));
      if (scope instanceof NestedStack) this.functionStacks.set(route.tag, scope);
      const handler = handlerOf(route);
      const apiFunction = functionsByHandler.get(handler) ?? new ApiFunction(scope, routeId(route), {
        ...functionDefaults,
        handler,
        dynamodb: grantedActions(route),
        indexes: route.indexes,
        assets: route.assets,
        paramsAndSecrets: cursorKeyAccess.paramsAndSecrets,
        environment: { ...cursorKeyAccess.environment, ...baseUrlEnvironment, ...(route.sendsSms ? this.smsEnvironment(options) : {}), ...(route.queuesWebhooks ? this.deliveryQueueEnvironment(options) : {}) },
        rollbackAlarms: (target) => monitoring.watchFunction(scope, routeId(route), target, { operationId: route.operationId }),
      });
      if (!options.samLocal && !functionsByHandler.has(handler)) cursorKey.grantRead(apiFunction.function);
      if (route.sendsSms && !functionsByHandler.has(handler)) this.grantSendTextMessage(apiFunction, options);
      if (route.queuesWebhooks && !functionsByHandler.has(handler)) this.grantQueueDeliveries(apiFunction, options);
      functionsByHandler.set(handler, apiFunction);
      const kind = authorizerOf(route);
      // A route's CORS preflight is answered by its own function, behind its authorizer: the function reads the
      // endpoint's allowed origins, which a mock integration could not.
      for (const httpMethod of methodsOf(route)) {
        const method = this.api.root.resourceForPath(route.path).addMethod(
          httpMethod,
          // No test-invoke permission: one Lambda permission per function, for the stage.
          new LambdaIntegration(apiFunction.alias, { allowTestInvoke: false }),
          // Every method with an authorizer requires the usage-plan key it names: its organization's plan meters it.
          kind
            ? { authorizer: authorizers[kind]!, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true }
            : { authorizationType: AuthorizationType.NONE },
        );
        if (!kind) {
          for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) {
            Validations.of(method).acknowledge({ id: rule, reason: `${httpMethod} ${route.path} is public by design: the API's own description and reference page.` });
          }
        } else {
          Validations.of(method).acknowledge({
            id: 'AwsSolutions-COG4',
            reason:
              kind === 'apiKey'
                ? 'Callers are integrations holding API keys, checked by the Lambda REQUEST authorizer, not Cognito users.'
                : 'Senders are web forms and email parsers holding an inbound endpoint’s token or signing secret, which the function checks; the Lambda REQUEST authorizer names the endpoint’s organization for its usage plan.',
          });
        }
      }
    }

    // A known path asked with another method: 405 with Allow, answered by API Gateway itself (a mock on ANY, which
    // a path's own methods take precedence over), so a wrong verb never looks like a missing record.
    const methodsByPath = new Map<string, string[]>();
    for (const route of routes) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    // Not for sam local: it cannot run a mock integration, and takes the ANY mock for the path's own methods too.
    for (const [path, methods] of options.samLocal ? [] : methodsByPath) {
      const { status, headers, body } = methodNotAllowed(methods);
      // The headers every answer carries (no-store, nosniff), as the local 405 and the gateway's other responses do.
      const titled = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
      const responseHeaders = { 'Content-Type': "'application/json'", ...Object.fromEntries(Object.entries({ ...NO_STORE_HEADERS, ...headers }).map(([name, value]) => [titled(name), `'${value}'`])) };
      const method = this.api.root.resourceForPath(path).addMethod(
        'ANY',
        new MockIntegration({
          // The mock reads its status from the request template, whatever the body. The stage takes every body as
          // binary (binaryMediaTypes */*), and a template applies to text only: the body is converted first.
          contentHandling: ContentHandling.CONVERT_TO_TEXT,
          passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
          requestTemplates: Object.fromEntries(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'].map((type) => [type, `{"statusCode": ${status}}`])),
          integrationResponses: [
            {
              statusCode: String(status),
              responseParameters: Object.fromEntries(Object.entries(responseHeaders).map(([name, value]) => [`method.response.header.${name}`, value])),
              responseTemplates: { 'application/json': JSON.stringify(body) },
            },
          ],
        }),
        {
          authorizationType: AuthorizationType.NONE,
          methodResponses: [{ statusCode: String(status), responseParameters: Object.fromEntries(Object.keys(responseHeaders).map((name) => [`method.response.header.${name}`, true])) }],
        },
      );
      for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) {
        Validations.of(method).acknowledge({ id: rule, reason: `ANY ${path} answers only 405 with the path's methods, from a mock integration: it reaches no function and no data.` });
      }
    }

    // One usage plan per row of USAGE_PLANS; `npm run admin -- org plan` puts an organization's key in one.
    for (const [name, plan] of Object.entries(USAGE_PLANS)) {
      const limited = Number.isFinite(plan.rateLimit);
      this.api.addUsagePlan(`UsagePlan-${name}`, {
        name: `${this.stackName}-${name}`,
        description: limited
          ? `${plan.rateLimit} requests/s, bursts of ${plan.burstLimit}, ${plan.dailyQuota} requests per UTC day per organization`
          : 'No limit per organization beyond the stage throttle',
        apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
        ...(limited
          ? { throttle: { rateLimit: plan.rateLimit, burstLimit: plan.burstLimit }, quota: { limit: plan.dailyQuota, period: Period.DAY } }
          : {}),
      });
    }
    monitoring.addDashboard();
    if (options.customDomain) this.addCustomDomain(options.customDomain);
    if (options.waf) new Firewall(this, 'Firewall', { stage: this.api.deploymentStage, stageName: STAGE_NAME, ratePerIp: options.waf.ratePerIp });

    new CfnOutput(this, 'RestApiId', { value: this.api.restApiId, description: 'The admin CLI\'s --api, to put organizations in usage plans' });

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The AWS managed role lets API Gateway write the stage execution and access logs, and nothing else.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason: 'Every function validates path, query and body with the same valibot schemas the OpenAPI document is built from.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason: 'Stage throttling and API-key authorization protect the API; a WAF web ACL is an operator choice per account.',
    });
  }

  /** A stable URL for integrators: the domain maps to the stage, so a redeploy or a new API id changes nothing for them. */
  /** The SMS provider's settings: End User Messaging SMS with the events stack's configuration set. */
  private smsEnvironment(options: DeploymentOptions): Record<string, string> {
    return {
      SMS_PROVIDER: 'end-user-messaging',
      SMS_CONFIGURATION_SET: smsConfigurationSetName(options.tableName),
      ...(options.smsOriginationIdentity ? { SMS_ORIGINATION_IDENTITY: options.smsOriginationIdentity } : {}),
    };
  }

  /** The events stack's delivery queues, by name (no cross-stack reference, as for the SMS configuration set). */
  private deliveryQueueEnvironment(options: DeploymentOptions): Record<string, string> {
    const names = deliveryQueueNames(options.tableName);
    const url = (name: string) => `https://sqs.${this.region}.${this.urlSuffix}/${this.account}/${name}`;
    return { WEBHOOK_QUEUE_URL: url(names.queue), WEBHOOK_DLQ_URL: url(names.deadLetters) };
  }

  /** SendMessage to the delivery queue (SSE-SQS, so no key to grant); dead-lettering is the delivery worker's alone. */
  private grantQueueDeliveries(sender: ApiFunction, options: DeploymentOptions): void {
    const arn = this.formatArn({ service: 'sqs', resource: deliveryQueueNames(options.tableName).queue, arnFormat: ArnFormat.NO_RESOURCE_NAME });
    sender.function.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], resources: [arn] }));
  }

  /** SendTextMessage through the configuration set, from the account's numbers, pools and sender ids. */
  private grantSendTextMessage(sender: ApiFunction, options: DeploymentOptions): void {
    const origins = ['phone-number', 'pool', 'sender-id'];
    sender.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['sms-voice:SendTextMessage'],
        resources: [
          this.formatArn({ service: 'sms-voice', resource: 'configuration-set', resourceName: smsConfigurationSetName(options.tableName) }),
          ...origins.map((resource) => this.formatArn({ service: 'sms-voice', resource, resourceName: '*' })),
        ],
      }),
    );
    const region = Token.isUnresolved(this.region) ? '<AWS::Region>' : this.region;
    for (const resource of origins) {
      Validations.of(sender).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:sms-voice:${region}:<AWS::AccountId>:${resource}/*]`,
        reason: 'Which number, pool or sender id an SMS leaves from is the account’s End User Messaging setup (smsOriginationIdentity), not the stack’s.',
      });
    }
  }

  private addCustomDomain({ domainName, certificateArn, hostedZoneId, hostedZoneName }: NonNullable<DeploymentOptions['customDomain']>) {
    const domain = new DomainName(this, 'Domain', {
      domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    domain.addBasePathMapping(this.api, { stage: this.api.deploymentStage });
    const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId, zoneName: hostedZoneName });
    new ARecord(this, 'DomainRecord', { zone, recordName: domainName, target: RecordTarget.fromAlias(new ApiGatewayDomain(domain)) });
    new CfnOutput(this, 'CustomDomainUrl', { value: `https://${domainName}/`, description: 'The URL to give integrators' });
  }
}

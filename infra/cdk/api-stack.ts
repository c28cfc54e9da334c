import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Period,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { USAGE_PLANS } from '../../shared/auth/usage-plans';
import { GATEWAY_RESPONSES, gatewayResponseBody, type GatewayResponse } from '../../shared/http/gateway-responses';
import { grantedActions, routeId, type RouteDefinition } from '../../shared/routes/route';
import { ApiFunction } from './api-function';

export interface ApiStackProps extends StackProps {
  table: ITableV2;
  routes: RouteDefinition[];
}

export const STAGE_NAME = 'prod';

/** The stateless part: the REST API, its authorizer and one function per row of the route table. */
export class ApiStack extends Stack {
  readonly api: RestApi;

  constructor(scope: Construct, id: string, { table, routes, ...props }: ApiStackProps) {
    super(scope, id, props);

    this.api = new RestApi(this, 'Api', {
      restApiName: 'sales-pipeline',
      description: 'Sales pipeline API',
      cloudWatchRole: true,
      // Usage plans meter organizations, not callers: the authorizer names the key (usageIdentifierKey).
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      deployOptions: {
        stageName: STAGE_NAME,
        // The whole API's ceiling, above any one organization's usage plan: it protects the table and the bill.
        throttlingRateLimit: 1000,
        throttlingBurstLimit: 2000,
        tracingEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        accessLogDestination: new LogGroupLogDestination(new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH })),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
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

    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: new ApiFunction(this, 'Authorizer', { handler: 'authorizer', table, dynamodb: ['Query', 'UpdateItem'], indexes: ['gsi1'] }).function,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(300),
    });

    for (const route of routes) {
      const { function: fn } = new ApiFunction(this, routeId(route), {
        handler: route.handler,
        table,
        dynamodb: grantedActions(route),
        indexes: route.indexes,
        assets: route.assets,
      });
      const method = this.api.root.resourceForPath(route.path).addMethod(
        route.method,
        new LambdaIntegration(fn),
        route.auth === 'none'
          ? { authorizationType: AuthorizationType.NONE }
          : { authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true },
      );
      if (route.auth === 'none') {
        for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) {
          Validations.of(method).acknowledge({ id: rule, reason: `${route.method} ${route.path} is public by design: the API's own description and reference page.` });
        }
      } else {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-COG4',
          reason: 'Callers are integrations holding API keys, checked by the Lambda REQUEST authorizer, not Cognito users.',
        });
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
}

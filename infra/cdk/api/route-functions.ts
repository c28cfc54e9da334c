import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { LambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ParamsAndSecretsLayerVersion, ParamsAndSecretsLogLevel, ParamsAndSecretsVersions } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { BASE_URL_VARIABLE } from '../../../shared/http/base-url';
import { grantedActions, handlerOf, routeId, type RouteDefinition } from '../../../shared/routes/route';
import { deliveryQueueNames, smsConfigurationSetName } from '../events-stack';
import type { Monitoring } from '../monitoring';
import type { DeploymentOptions } from '../options';
import { ApiFunction } from '../service-function';
import type { AuthorizerProps } from './authorizers';
import { STAGE_NAME } from './rest-api';

export interface RouteFunctionsProps {
  api: RestApi;
  options: DeploymentOptions;
  monitoring: Monitoring;
  functionDefaults: AuthorizerProps['functionDefaults'];
}

/**
 * Signs list cursors (shared/store/cursors.ts). The functions are given its ARN, never its value: they read it at
 * run time through the Parameters and Secrets extension (its own cache off), and again every 5 minutes, so a
 * replaced key takes over without a deploy and the previous one still verifies (shared/store/cursor-keys.ts).
 */
export function createCursorKey(stack: Stack): Secret {
  const cursorKey = new Secret(stack, 'CursorSigningKey', {
    description: 'Signs the pagination cursors of the sales pipeline API',
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });
  Validations.of(cursorKey).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason: 'It signs pagination cursors, which live minutes: it is replaced by hand (put-secret-value, docs/operations.md) rather than on a schedule; the functions read the new value within 5 minutes and still verify the previous one.',
  });
  return cursorKey;
}

/** The function behind each route, one per handler, made in the stack its route's group is in. */
export class RouteFunctions {
  private readonly byHandler = new Map<string, ApiFunction>();
  private readonly cursorKey: Secret;
  private readonly environment: Record<string, string>;
  private readonly paramsAndSecrets?: ParamsAndSecretsLayerVersion;

  constructor(private readonly stack: Stack, private readonly props: RouteFunctionsProps) {
    const { api, options } = props;
    this.cursorKey = createCursorKey(stack);
    // `sam local` declares the variable for --env-vars to fill with npm start's key: it cannot run the extension.
    const cursorKeyEnvironment: Record<string, string> = options.samLocal ? { CURSOR_SECRET: '' } : { CURSOR_SECRET_ARN: this.cursorKey.secretArn };
    if (!options.samLocal) this.paramsAndSecrets = ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, { cacheEnabled: false, logLevel: ParamsAndSecretsLogLevel.WARN });
    // Where the API is, for the URLs answers name and the MCP server's tool calls (shared/http/base-url.ts): never the
    // request's Host. The custom domain, else the stage's URL built from the API's id: the stage's own URL (api.url)
    // would make each function depend on the deployment, which depends on the functions' methods, a cycle.
    const baseUrl = options.customDomain ? `https://${options.customDomain.domainName}` : `https://${api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${STAGE_NAME}`;
    this.environment = { ...cursorKeyEnvironment, [BASE_URL_VARIABLE]: baseUrl };
  }

  functionFor = (scope: Construct, route: RouteDefinition): ApiFunction => {
    const handler = handlerOf(route);
    const made = this.byHandler.get(handler);
    if (made) return made;
    const { options, monitoring, functionDefaults } = this.props;
    const apiFunction = new ApiFunction(scope, routeId(route), {
      ...functionDefaults,
      handler,
      dynamodb: grantedActions(route),
      indexes: route.indexes,
      assets: route.assets,
      paramsAndSecrets: this.paramsAndSecrets,
      environment: { ...this.environment, ...(route.sendsSms ? this.smsEnvironment() : {}), ...(route.queuesWebhooks ? this.deliveryQueueEnvironment() : {}) },
      rollbackAlarms: (target) => monitoring.watchFunction(scope, routeId(route), target, { operationId: route.operationId }),
    });
    if (!options.samLocal) this.cursorKey.grantRead(apiFunction.function);
    if (route.sendsSms) this.grantSendTextMessage(apiFunction);
    if (route.queuesWebhooks) this.grantQueueDeliveries(apiFunction);
    this.byHandler.set(handler, apiFunction);
    return apiFunction;
  };

  /** The SMS provider's settings: End User Messaging SMS with the events stack's configuration set. */
  private smsEnvironment(): Record<string, string> {
    const { options } = this.props;
    return {
      SMS_PROVIDER: 'end-user-messaging',
      SMS_CONFIGURATION_SET: smsConfigurationSetName(options.tableName),
      ...(options.smsOriginationIdentity ? { SMS_ORIGINATION_IDENTITY: options.smsOriginationIdentity } : {}),
    };
  }

  /** The events stack's delivery queues, by name (no cross-stack reference, as for the SMS configuration set). */
  private deliveryQueueEnvironment(): Record<string, string> {
    const names = deliveryQueueNames(this.props.options.tableName);
    const url = (name: string) => `https://sqs.${this.stack.region}.${this.stack.urlSuffix}/${this.stack.account}/${name}`;
    return { WEBHOOK_QUEUE_URL: url(names.queue), WEBHOOK_DLQ_URL: url(names.deadLetters) };
  }

  /** SendMessage to the delivery queue (SSE-SQS, so no key to grant); dead-lettering is the delivery worker's alone. */
  private grantQueueDeliveries(sender: ApiFunction): void {
    const arn = this.stack.formatArn({ service: 'sqs', resource: deliveryQueueNames(this.props.options.tableName).queue, arnFormat: ArnFormat.NO_RESOURCE_NAME });
    sender.function.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], resources: [arn] }));
  }

  /** SendTextMessage through the configuration set, from the account's numbers, pools and sender ids. */
  private grantSendTextMessage(sender: ApiFunction): void {
    const origins = ['phone-number', 'pool', 'sender-id'];
    const { stack } = this;
    sender.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['sms-voice:SendTextMessage'],
        resources: [
          stack.formatArn({ service: 'sms-voice', resource: 'configuration-set', resourceName: smsConfigurationSetName(this.props.options.tableName) }),
          ...origins.map((resource) => stack.formatArn({ service: 'sms-voice', resource, resourceName: '*' })),
        ],
      }),
    );
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    for (const resource of origins) {
      Validations.of(sender).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:sms-voice:${region}:<AWS::AccountId>:${resource}/*]`,
        reason: 'Which number, pool or sender id an SMS leaves from is the account’s End User Messaging setup (smsOriginationIdentity), not the stack’s.',
      });
    }
  }
}

/** The CodeDeploy application every API function's canary belongs to, and the role CodeDeploy shifts aliases with. */
export function createCanaryDeployments(stack: Stack): { deployments: LambdaApplication; deploymentRole: Role } {
  const deployments = new LambdaApplication(stack, 'Deployments');
  const deploymentRole = new Role(stack, 'DeploymentRole', {
    assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
    managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
  });
  Validations.of(deploymentRole).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
    reason: "AWS's managed policy for CodeDeploy shifting Lambda aliases: it updates aliases and reads the rollback alarms, nothing else.",
  });
  return { deployments, deploymentRole };
}

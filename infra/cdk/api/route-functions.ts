import { Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { LambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ParamsAndSecretsLayerVersion, ParamsAndSecretsLogLevel, ParamsAndSecretsVersions } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { BASE_URL_VARIABLE } from '#shared/http/base-url';
import { grantedActions, handlerOf, routeId, type CapabilityContext, type RouteDefinition } from '#shared/routes/route';
import { actsForOrganizations } from '#shared/tenancy/policies';
import { capabilityContext, capabilityEnvironment, grantCapabilities } from '../capabilities';
import type { Monitoring } from '../monitoring';
import type { DeploymentOptions } from '../options';
import { ApiFunction } from '../service-function';
import type { AuthorizerProps } from './authorizers';
import { STAGE_NAME } from './rest-api';
import type { TenantDataAccess } from '../tenant-data-role';

export interface RouteFunctionsProps {
  api: RestApi;
  options: DeploymentOptions;
  monitoring: Monitoring;
  functionDefaults: AuthorizerProps['functionDefaults'];
  /** The role a keyed route's calls are signed with, per organization. */
  tenantData: TenantDataAccess;
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

/**
 * Where the API is, for the URLs answers name and the MCP server's tool calls (shared/http/base-url.ts): never the
 * request's Host. The custom domain, else the stage's URL built from the API's id: the stage's own URL (api.url) would
 * make each function depend on the deployment, which depends on the functions' methods, a cycle.
 */
export const deployedBaseUrl = (stack: Stack, api: RestApi, options: DeploymentOptions): string =>
  options.customDomain ? `https://${options.customDomain.domainName}` : (options.consoleBaseUrl ?? `https://${api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${STAGE_NAME}`);

/**
 * Whether a route's function signs or reads list cursors, and so reads the cursor key: a keyed route may list (itself,
 * or an MCP tool call run in process); a public one (OAuth, metadata, the inbound post, the reference) lists nothing,
 * and reads it only when its row says it signs with it (`readsSigningKey`: OAuth's consent page, for its CSRF tokens).
 */
export const readsCursorKey = (route: Pick<RouteDefinition, 'auth' | 'readsSigningKey'>): boolean => route.auth !== 'none' || route.readsSigningKey === true;

/** The function behind each route, one per handler, made in the stack its route's group is in. */
export class RouteFunctions {
  private readonly byHandler = new Map<string, ApiFunction>();
  private readonly cursorKey: Secret;
  private readonly environment: Record<string, string>;
  /** The cursor key's ARN, or `sam local`'s variable for its value: for the routes that read it alone. */
  private readonly cursorKeyEnvironment: Record<string, string>;
  private readonly paramsAndSecrets?: ParamsAndSecretsLayerVersion;
  private readonly where: CapabilityContext;

  constructor(stack: Stack, private readonly props: RouteFunctionsProps) {
    const { api, options } = props;
    this.cursorKey = createCursorKey(stack);
    // `sam local` declares the variable for --env-vars to fill with npm start's key: it cannot run the extension.
    this.cursorKeyEnvironment = options.samLocal ? { CURSOR_SECRET: '' } : { CURSOR_SECRET_ARN: this.cursorKey.secretArn };
    if (!options.samLocal) this.paramsAndSecrets = ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, { cacheEnabled: false, logLevel: ParamsAndSecretsLogLevel.WARN });
    this.environment = { [BASE_URL_VARIABLE]: deployedBaseUrl(stack, api, options) };
    this.where = { ...capabilityContext(stack, options), restApiId: api.restApiId, stageName: STAGE_NAME };
  }

  functionFor = (scope: Construct, route: RouteDefinition): ApiFunction => {
    const handler = handlerOf(route);
    const made = this.byHandler.get(handler);
    if (made) return made;
    const { options, monitoring, functionDefaults } = this.props;
    const cursors = readsCursorKey(route);
    const apiFunction = new ApiFunction(scope, routeId(route), {
      ...functionDefaults,
      handler,
      dynamodb: grantedActions(route),
      indexes: route.indexes,
      // A public route's function is a named exception (docs/data-model.md): no organization signs its calls, until
      // one that says so has named the organization (`organizationSession`).
      tenantData: actsForOrganizations(route) ? this.props.tenantData : undefined,
      keys: route.ownKeys,
      assets: route.assets,
      reservedConcurrency: options.concurrency.routes ? route.reservedConcurrency : undefined,
      paramsAndSecrets: cursors ? this.paramsAndSecrets : undefined,
      environment: { ...(cursors ? this.cursorKeyEnvironment : {}), ...this.environment, ...capabilityEnvironment(route.capabilities ?? [], this.where) },
      rollbackAlarms: (target) => monitoring.watchFunction(scope, routeId(route), target, { operationId: route.operationId }),
    });
    if (cursors && !options.samLocal) this.cursorKey.grantRead(apiFunction.function);
    grantCapabilities(apiFunction, route.capabilities ?? [], this.where, { forOrganization: actsForOrganizations(route) });
    this.byHandler.set(handler, apiFunction);
    return apiFunction;
  };
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

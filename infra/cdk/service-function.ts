import { AssetHashType, Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaDeploymentConfig, LambdaDeploymentGroup, type ILambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import { Alias, ApplicationLogLevel, type Version, Architecture, Code, Function as LambdaFunction, LoggingFormat, Runtime, SystemLogLevel, Tracing, type ParamsAndSecretsLayerVersion } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { SERVICE_ROLE_PATH } from '#shared/iam';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#shared/observability';
import { parseHandler, type DynamoAction } from '#shared/routes/route';
import type { IndexName } from '#shared/table';
import { bundledHandler, moduleBundling, projectRoot } from './bundling';
import { admitToTenantData, type TenantDataAccess } from './tenant-data-role';
import { ownTableStatements } from '#shared/tenancy/policies';
import type { OwnKeys } from '#shared/table';

export interface ServiceFunctionProps {
  /** Its handler below functions/ (`parseHandler`): `sms/sweep`, `leads/handlers#createLeadHandler`. */
  handler: string;
  table: ITableV2;
  /** Exactly the DynamoDB actions this function may call, on the table and its indexes. */
  dynamodb: readonly DynamoAction[];
  /** The secondary indexes it queries; the grant covers the table and only these. */
  indexes?: readonly IndexName[];
  /** The partition keys its own grant covers (patterns; every organization's unless named): shared/tenancy/policies.ts. */
  keys?: readonly OwnKeys[];
  /** Files below node_modules the function reads at run time, copied beside its bundle. */
  assets?: readonly string[];
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  debugSampleRate: number;
  /** Settings beyond the defaults (the table, Powertools), e.g. a queue's URL. */
  environment?: Record<string, string>;
  /** 15 s unless set: above the DynamoDB client's worst case, below API Gateway's 29 s. */
  timeout?: Duration;
  /** arm64 deployed (DeploymentOptions.architecture). */
  architecture: 'arm64' | 'x86_64';
  /** Concurrency kept for this function alone, which is also its ceiling. */
  reservedConcurrency?: number;
  /**
   * Active unless set: the function asks X-Ray whether to trace when its caller sent no decision, which Lambda answers
   * with X-Ray's default rule (nearly every invocation at low traffic) and no sampling rule can change. PassThrough
   * traces only what a sampled caller's trace header brings.
   */
  tracing?: Tracing;
  /** The Parameters and Secrets extension, for a function that reads a secret at run time. */
  paramsAndSecrets?: ParamsAndSecretsLayerVersion;
  /**
   * For a keyed route: its calls are signed with the tenant-data role, assumed for the request's organization with
   * `dynamodb` as the session's actions, so its own role is given no table access at all; for a public route that
   * acts for the organization it names, none but on its `keys`.
   */
  tenantData?: TenantDataAccess;
}

export interface ApiFunctionProps extends ServiceFunctionProps {
  /** The CodeDeploy application its canary deployments belong to, and the role CodeDeploy uses. */
  deployments: ILambdaApplication;
  deploymentRole: IRole;
  /** Alarms that roll a canary back: the caller's, for what it watches of this function's new version. */
  rollbackAlarms: (target: { fn: LambdaFunction; version: Version; aliasName: string }) => IAlarm[];
}

/**
 * Every function of the service, with every default in one place: Node.js 24 on arm64 (x86_64 by option), the handler
 * bundled as infra/cdk/bundling.ts says, its own log group with a retention and a role that writes only to it,
 * JSON logs at the configured level, X-Ray tracing (active unless told), the table's name and a least-privilege DynamoDB grant.
 */
export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, { handler, table, dynamodb, indexes = [], assets = [], logLevel, debugSampleRate, environment = {}, timeout = Duration.seconds(15), architecture, reservedConcurrency, tracing = Tracing.ACTIVE, paramsAndSecrets, tenantData, keys }: ServiceFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    // Its own role, writing only its own log group: the managed basic execution role allows every log group.
    // At the service's path, which the sealing key's policy asks of the roles it admits by tag.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), path: SERVICE_ROLE_PATH });
    logGroup.grantWrite(role);
    this.function = new LambdaFunction(this, 'Function', {
      code: Code.fromAsset(projectRoot, { assetHashType: AssetHashType.OUTPUT, bundling: moduleBundling(parseHandler(handler).module, assets) }),
      handler: bundledHandler(handler),
      runtime: Runtime.NODEJS_24_X,
      architecture: architecture === 'x86_64' ? Architecture.X86_64 : Architecture.ARM_64,
      memorySize: 512,
      reservedConcurrentExecutions: reservedConcurrency,
      paramsAndSecrets,
      timeout,
      tracing,
      logGroup,
      role,
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel[logLevel],
      systemLogLevelV2: SystemLogLevel.WARN,
      environment: {
        TABLE_NAME: table.tableName,
        // Declared empty so that `sam local start-api --env-vars` can point it at DynamoDB Local; empty means AWS's own.
        AWS_ENDPOINT_URL_DYNAMODB: '',
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: logLevel,
        POWERTOOLS_LOGGER_SAMPLE_RATE: String(debugSampleRate),
        ...environment,
      },
    });
    if (tenantData) admitToTenantData(this.function, role, tenantData);
    // A function admitted to sessions has a grant of its own only on the keys it names: a public route's, outside every organization.
    if (dynamodb.length && (!tenantData || keys)) {
      for (const { Action, Resource, Condition } of ownTableStatements({ actions: dynamodb, indexes, keys }, table.tableArn)) {
        this.function.addToRolePolicy(new PolicyStatement({ actions: Action, resources: Resource, conditions: Condition }));
      }
    }
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments and PutTelemetryRecords do not support resource-level permissions.',
    });
  }
}

/** The alias API Gateway invokes and CodeDeploy shifts. */
export const LIVE_ALIAS = 'live';

/** A function behind API Gateway: a ServiceFunction with a `live` alias that CodeDeploy shifts by canary, rolled back by alarms. */
export class ApiFunction extends ServiceFunction {
  /** What API Gateway invokes: the version CodeDeploy has shifted traffic to. */
  readonly alias: Alias;

  constructor(scope: Construct, id: string, { deployments, deploymentRole, rollbackAlarms, ...props }: ApiFunctionProps) {
    super(scope, id, props);
    const version = this.function.currentVersion;
    this.alias = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version });
    // By the alias's name, not the alias: the alias depends on the deployment group, which depends on the alarms.
    const alarms = rollbackAlarms({ fn: this.function, version, aliasName: LIVE_ALIAS });
    new LambdaDeploymentGroup(this, 'Canary', {
      application: deployments,
      role: deploymentRole,
      alias: this.alias,
      deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
      alarms,
    });
    // The alarms name the new version: updated before the alias starts its canary, they judge that version from its first answer.
    this.alias.node.addDependency(...alarms);
  }
}

import { Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DynamoAction } from '../../shared/routes/route';
import type { IndexName } from '../../shared/table';
import { BUNDLING } from './bundling';

export interface ApiFunctionProps {
  /** Module below functions/, without extension. */
  handler: string;
  table: ITableV2;
  /** Exactly the DynamoDB actions this function may call, on the table and its indexes. */
  dynamodb: readonly DynamoAction[];
  /** The secondary indexes it queries; the grant covers the table and only these. */
  indexes?: readonly IndexName[];
  /** Files below node_modules the function reads at run time, copied beside its bundle. */
  assets?: readonly string[];
}

const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));

/**
 * Every function of the API, with every default in one place: Node.js 24 on arm64, the handler
 * bundled as BUNDLING says, its own log group with a retention and a role that writes only to it,
 * X-Ray tracing, the table's name, and a least-privilege DynamoDB grant.
 */
export class ApiFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, { handler, table, dynamodb, indexes = [], assets = [] }: ApiFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    // Its own role, writing only its own log group: the managed basic execution role allows every log group.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, 'Function', {
      entry: `${functionsDir}${handler}.ts`,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      // Above the DynamoDB client's worst case (shared/dynamo.ts), below API Gateway's 29 s.
      timeout: Duration.seconds(15),
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      environment: { TABLE_NAME: table.tableName, NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        ...BUNDLING,
        mainFields: [...BUNDLING.mainFields],
        externalModules: [...BUNDLING.externalModules],
        commandHooks: assets.length
          ? {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (inputDir, outputDir) =>
                assets.map((asset) => `cp "${join(inputDir, 'node_modules', asset)}" "${join(outputDir, basename(asset))}"`),
            }
          : undefined,
      },
    });
    if (dynamodb.length) {
      this.function.addToRolePolicy(
        new PolicyStatement({
          actions: [...new Set(dynamodb)].sort().map((action) => `dynamodb:${action}`),
          resources: [table.tableArn, ...indexes.map((index) => `${table.tableArn}/index/${index}`)],
        }),
      );
    }
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments and PutTelemetryRecords do not support resource-level permissions.',
    });
  }
}

import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnWorkGroup } from 'aws-cdk-lib/aws-athena';
import { TableV2, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { CfnDatabase, CfnTable } from 'aws-cdk-lib/aws-glue';
import { AccountRootPrincipal, ArnPrincipal, PolicyDocument, PolicyStatement, Role, type IRole } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { alarmOnWaiting, queueDefaults } from './events/channels';
import type { DeploymentOptions } from './options';
import { ServiceFunction } from './service-function';
import { OPT_IN_HANDLERS } from './bundling';
import { keyAdministration } from './key-policies';

/** The export's handler below functions/: declared by this stack alone, as nothing else deploys it. */
export const EXPORT_HANDLER = OPT_IN_HANDLERS.analyticsExport;

/**
 * The figures the stack is built from, which docs/reports.md states: how long each prefix keeps its objects (Glue's
 * partition projection reaches back as far as exports are kept), when the daily export runs, and the most one query
 * may scan.
 */
export const ANALYTICS = {
  exportsPrefix: 'exports/',
  resultsPrefix: 'athena-results/',
  exportDays: 35,
  resultDays: 7,
  /** 17:00 UTC: 3 or 4 am in Sydney, when the Australian organizations are quietest. */
  exportAt: { hour: '17', minute: '0' },
  bytesScannedCutoffPerQuery: 10 * 1024 ** 3,
  /** How long the schedule and Lambda retry one day's export: within DynamoDB's 8 hours of client-token idempotency. */
  retryFor: Duration.hours(6),
} as const;

/** The catalog names, from the table's: `sales_pipeline` and `sales-pipeline-analytics` unless tableName says otherwise. */
export const analyticsNames = (tableName: string) => ({ database: tableName.replace(/[^a-z0-9]/gi, '_').toLowerCase(), table: 'items', workgroup: `${tableName}-analytics` });

/** The attributes the Glue table reads from each exported item (DynamoDB JSON; the JSON SerDe reads names in lower case). */
const ITEM_ATTRIBUTES = { pk: 's', sk: 's', entity: 's', status: 's', source: 's', value: 'n', createdat: 's', wonat: 's' } as const;
const itemColumnType = `struct<${Object.entries(ITEM_ATTRIBUTES).map(([name, type]) => `${name}:struct<${type}:string>`).join(',')}>`;

export interface AnalyticsStackProps extends StackProps {
  options: DeploymentOptions;
}

/**
 * Opt-in (`-c analytics=true`): a daily full export of the table to S3 (DynamoDB's ExportTableToPointInTime, which
 * reads the point-in-time backups the data stack keeps, not the table's capacity), a Glue table over the exports, one
 * partition per day, and an Athena workgroup that bounds what a query may scan. The request path is untouched.
 */
export class AnalyticsStack extends Stack {
  readonly bucket: Bucket;
  readonly exporter: ServiceFunction;
  /** Encrypts the exports and Athena's results (SSE-KMS): its policy lets the export write them and the query role read them. */
  readonly exportKey: Key;
  /** Who queries the exports: Athena in the workgroup, the catalog's table, the bucket's objects and the export key. */
  readonly queryRole: Role;

  constructor(scope: Construct, id: string, { options, ...props }: AnalyticsStackProps) {
    super(scope, id, props);
    const names = analyticsNames(options.tableName);
    // By name, as the events stack finds it: no cross-stack export to pin the data stack.
    const table = TableV2.fromTableAttributes(this, 'Table', { tableName: options.tableName });
    this.queryRole = new Role(this, 'QueryRole', { assumedBy: new AccountRootPrincipal(), description: 'Queries the daily exports of the sales pipeline table in Athena' });
    this.exportKey = new Key(this, 'ExportKey', {
      description: `Encrypts the daily exports of table ${options.tableName} and Athena's results over them`,
      enableKeyRotation: true,
      // The exports outlive the stack (the bucket is retained): so does the key that reads them.
      removalPolicy: RemovalPolicy.RETAIN,
      policy: new PolicyDocument({ statements: [keyAdministration(this)] }),
    });
    this.bucket = this.makeBucket();
    const alarms = new Topic(this, 'Alarms', { displayName: 'Sales pipeline analytics alarms', enforceSSL: true });
    for (const email of options.alarmEmails) alarms.addSubscription(new EmailSubscription(email));
    Validations.of(alarms).acknowledge({ id: 'AwsSolutions-SNS2', reason: 'Alarm notifications only: SSE with the AWS managed key would keep CloudWatch from publishing to it.' });
    this.exporter = this.addExport(table, alarms, options);
    this.addCatalog(names);
    const workgroup = this.addWorkgroup(names.workgroup);
    this.grantQueries(names);
    // The key's own policy names who may use it, and through S3 alone: the export writes, the query role reads and
    // writes Athena's results. Neither has any grant on the key sealing tenants' secrets in the table (the data
    // stack's), so the secrets an export copies stay ciphertext to whoever queries it.
    this.allowThroughS3(this.exporter.function.role!, ['kms:GenerateDataKey', 'kms:Decrypt']);
    this.allowThroughS3(this.queryRole, ['kms:GenerateDataKey', 'kms:Decrypt']);
    new CfnOutput(this, 'ExportBucket', { value: this.bucket.bucketName, description: 'The bucket of the daily exports and of Athena’s results' });
    new CfnOutput(this, 'WorkgroupName', { value: workgroup.ref, description: 'The Athena workgroup to query the exports in' });
    new CfnOutput(this, 'DatabaseName', { value: names.database, description: 'The Glue database holding the table `items`' });
    new CfnOutput(this, 'QueryRoleArn', { value: this.queryRole.roleArn, description: 'The role to assume to query the exports' });
  }

  /** A statement of the export key's policy letting `role` use it for S3's objects in this region, and nothing else. */
  private allowThroughS3(role: IRole, actions: string[]): void {
    this.exportKey.addToResourcePolicy(
      new PolicyStatement({ principals: [new ArnPrincipal(role.roleArn)], actions, resources: ['*'], conditions: { StringEquals: { 'kms:ViaService': `s3.${this.region}.${this.urlSuffix}` } } }),
    );
    role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [this.exportKey.keyArn] }));
  }

  /** Athena in the workgroup, the catalog's database and table, and the bucket's exports (read) and results (read and write). */
  private grantQueries(names: ReturnType<typeof analyticsNames>): void {
    const arn = (service: string, resource: string) => `arn:${this.partition}:${service}:${this.region}:${this.account}:${resource}`;
    const role = this.queryRole;
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults', 'athena:StopQueryExecution', 'athena:GetWorkGroup'], resources: [arn('athena', `workgroup/${names.workgroup}`)] }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'], resources: [arn('glue', 'catalog'), arn('glue', `database/${names.database}`), arn('glue', `table/${names.database}/${names.table}`)] }),
    );
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetBucketLocation', 's3:ListBucket'], resources: [this.bucket.bucketArn] }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${ANALYTICS.exportsPrefix}*`), this.bucket.arnForObjects(`${ANALYTICS.resultsPrefix}*`)] }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [this.bucket.arnForObjects(`${ANALYTICS.resultsPrefix}*`)] }));
    const bucketId = this.getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${ANALYTICS.exportsPrefix}*]`,
      reason: 'The exports are objects DynamoDB names below each day’s prefix: the role reads the exports/ prefix of this bucket.',
    });
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${ANALYTICS.resultsPrefix}*]`,
      reason: 'Athena names each query’s result objects below the workgroup’s output prefix: the role reads and writes the athena-results/ prefix of this bucket.',
    });
  }

  private makeBucket(): Bucket {
    const bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // SSE-KMS with the export key, which only the export and the query role may use; an S3 Bucket Key per object
      // batch keeps KMS calls off each object.
      encryption: BucketEncryption.KMS,
      encryptionKey: this.exportKey,
      bucketKeyEnabled: true,
      enforceSSL: true,
      // The exports copy the table; they outlive the stack as the table does, and expire on their own.
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        { id: 'Exports', prefix: ANALYTICS.exportsPrefix, expiration: Duration.days(ANALYTICS.exportDays), abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'AthenaResults', prefix: ANALYTICS.resultsPrefix, expiration: Duration.days(ANALYTICS.resultDays), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Written only by the DynamoDB export this stack’s function starts and by Athena, whose calls CloudTrail records; public access is blocked and TLS enforced. An access log would add a line per object of every export.',
    });
    return bucket;
  }

  /** The daily export: its function, granted the export of this table into `exports/` only, its schedule and its failure path. */
  private addExport(table: ITableV2, alarms: Topic, options: DeploymentOptions): ServiceFunction {
    const exportObjects = this.bucket.arnForObjects(`${ANALYTICS.exportsPrefix}*`);
    const exporter = new ServiceFunction(this, 'ExportTable', {
      handler: EXPORT_HANDLER,
      table,
      // None of the item actions: the export reads the point-in-time backups, granted below.
      dynamodb: [],
      logLevel: options.logLevel,
      debugSampleRate: options.debugSampleRate,
      architecture: options.architecture,
      // A schedule brings no trace header: traced only if a caller's trace asks, as the events stack's jobs.
      tracing: Tracing.PASS_THROUGH,
      timeout: Duration.seconds(60),
      environment: { TABLE_ARN: table.tableArn, EXPORT_BUCKET: this.bucket.bucketName, EXPORT_KEY_ARN: this.exportKey.keyArn },
    });
    exporter.function.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:ExportTableToPointInTime'], resources: [table.tableArn] }));
    // What DynamoDB's export writes with the caller's permissions: the objects of the export and their ACL.
    exporter.function.addToRolePolicy(new PolicyStatement({ actions: ['s3:AbortMultipartUpload', 's3:PutObject', 's3:PutObjectAcl'], resources: [exportObjects] }));
    Validations.of(exporter).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>/${ANALYTICS.exportsPrefix}*]`,
      reason: 'An export writes objects whose names DynamoDB chooses below the day’s prefix: the grant is the exports/ prefix of this bucket, for writes only.',
    });

    // A failed export (after Lambda's own retries) or an undeliverable schedule leaves its event here, and pages.
    const failures = new Queue(this, 'ExportFailures', { ...queueDefaults, retentionPeriod: Duration.days(14) });
    Validations.of(failures).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'A dead-letter queue: the export’s failed invocations and undelivered schedules.' });
    exporter.function.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: ANALYTICS.retryFor, onFailure: new SqsDestination(failures) });
    new Rule(this, 'ExportSchedule', {
      description: 'The daily export of the table to S3 for Athena',
      schedule: Schedule.cron(ANALYTICS.exportAt),
      targets: [new LambdaFunction(exporter.function, { retryAttempts: 2, maxEventAge: ANALYTICS.retryFor, deadLetterQueue: failures })],
    });
    alarmOnWaiting(this, failures, 'ExportFailed', `The table's daily export to S3 failed (${EXPORT_HANDLER}); its event waits in the ExportFailures queue.`, alarms);
    return exporter;
  }

  /** The Glue table over the exports: one partition per day, projected from the prefix's `dt`, so no crawler runs. */
  private addCatalog(names: ReturnType<typeof analyticsNames>): void {
    const database = new CfnDatabase(this, 'Database', { catalogId: this.account, databaseInput: { name: names.database, description: 'Daily exports of the sales pipeline table' } });
    const location = `s3://${this.bucket.bucketName}/${ANALYTICS.exportsPrefix}`;
    const items = new CfnTable(this, 'Items', {
      catalogId: this.account,
      databaseName: names.database,
      tableInput: {
        name: names.table,
        description: 'Every item of the table as exported each day (DynamoDB JSON); the manifests read as rows without an item',
        tableType: 'EXTERNAL_TABLE',
        partitionKeys: [{ name: 'dt', type: 'string' }],
        parameters: {
          classification: 'json',
          'projection.enabled': 'true',
          'projection.dt.type': 'date',
          'projection.dt.format': 'yyyy-MM-dd',
          'projection.dt.range': `NOW-${ANALYTICS.exportDays}DAYS,NOW`,
          'projection.dt.interval': '1',
          'projection.dt.interval.unit': 'DAYS',
          'storage.location.template': `${location}dt=\${dt}/AWSDynamoDB/`,
        },
        storageDescriptor: {
          location,
          columns: [{ name: 'item', type: itemColumnType }],
          inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
          outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
          // The export's manifest and checksum files sit beside the data: a line that is not JSON is skipped.
          serdeInfo: { serializationLibrary: 'org.openx.data.jsonserde.JsonSerDe', parameters: { 'ignore.malformed.json': 'true' } },
        },
      },
    });
    items.addResourceDependency(database);
  }

  /** Athena's workgroup: its settings bind every query (results encrypted in the bucket, a cap on bytes scanned). */
  private addWorkgroup(name: string): CfnWorkGroup {
    return new CfnWorkGroup(this, 'Workgroup', {
      name,
      description: 'Queries over the daily exports of the sales pipeline table',
      state: 'ENABLED',
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: ANALYTICS.bytesScannedCutoffPerQuery,
        engineVersion: { selectedEngineVersion: 'Athena engine version 3' },
        resultConfiguration: {
          outputLocation: `s3://${this.bucket.bucketName}/${ANALYTICS.resultsPrefix}`,
          encryptionConfiguration: { encryptionOption: 'SSE_KMS', kmsKey: this.exportKey.keyArn },
        },
      },
    });
  }
}

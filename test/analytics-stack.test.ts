import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { ExportTableToPointInTimeCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { ANALYTICS, EXPORT_HANDLER } from '../infra/cdk/analytics-stack';
import { bundledHandler } from '../infra/cdk/bundling';
import { readOptions } from '../infra/cdk/options';

// Asset bundling is left to `npm run synth`; here only the templates matter.
const context = { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline' };
const { app, analytics } = buildApp(new App({ context: { ...context, analytics: 'true' } }));
const template = Template.fromStack(analytics!);

type Resource = { Properties: Record<string, any>; DeletionPolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const only = (type: string): [string, Resource] => {
  const found = Object.entries(template.findResources(type) as Record<string, Resource>);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const [bucketId, bucket] = only('AWS::S3::Bucket');
const [queueId] = only('AWS::SQS::Queue');
const [functionId, exportFunction] = only('AWS::Lambda::Function');
const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
// The table by its name, as the data stack names it: this stack imports nothing from another.
const tableArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':dynamodb:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':table/pipeline']] };
const inBucket = (path: string) => ({ 'Fn::Join': ['', [`s3://`, { Ref: bucketId }, path]] });
const [exportKeyId, exportKey] = only('AWS::KMS::Key');
const exportKeyArn = { 'Fn::GetAtt': [exportKeyId, 'Arn'] };
const queryRoleId = Object.keys(template.findResources('AWS::IAM::Role')).find((id) => id.startsWith('QueryRole'))!;

describe('the analytics stack', () => {
  it('is built only when -c analytics=true asks for it', () => {
    const without = buildApp(new App({ context }));
    expect(without.analytics).toBeUndefined();
    expect(without.app.node.tryFindChild('SalesPipelineAnalytics')).toBeUndefined();
    const analyticsOption = (value: unknown) => readOptions(new App({ context: { ...context, analytics: value } }).node).analytics;
    expect([undefined, false, 'false', true, 'true'].map(analyticsOption)).toEqual([false, false, false, true, true]);
    expect(() => analyticsOption('yes')).toThrow('Context analytics must be true or false (got "yes")');
    expect(analytics!.stackName).toBe('SalesPipelineAnalytics');
    // Deployed after the table it exports.
    expect(analytics!.dependencies.map((stack) => stack.stackName)).toEqual(['SalesPipelineData']);
  });

  it('keeps the exports in a private, encrypted, TLS-only bucket that expires them, and Athena’s results sooner', () => {
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.Properties.BucketEncryption).toEqual({ ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: exportKeyArn }, BucketKeyEnabled: true }] });
    expect(bucket.Properties.LifecycleConfiguration.Rules.map((rule: Record<string, unknown>) => [rule.Prefix, rule.ExpirationInDays, rule.Status])).toEqual([
      ['exports/', 35, 'Enabled'],
      ['athena-results/', 7, 'Enabled'],
    ]);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('exports the table once a day at 17:00 UTC, retrying into a failure queue that pages', () => {
    const rules = Object.values(template.findResources('AWS::Events::Rule') as Record<string, Resource>);
    expect(rules.map((rule) => rule.Properties.ScheduleExpression)).toEqual(['cron(0 17 * * ? *)']);
    expect(rules[0]!.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [functionId, 'Arn'] }, DeadLetterConfig: { Arn: queueArn }, RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 } }),
    ]);
    // A failure of the function itself (EventBridge invokes it asynchronously) goes to the same queue after Lambda's retries.
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: queueArn } },
    });
    // Within DynamoDB's 8 hours in which a repeated client token starts no second export.
    expect(ANALYTICS.retryFor.toHours()).toBeLessThan(8);
    const [, alarm] = only('AWS::CloudWatch::Alarm');
    expect(alarm.Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }], Threshold: 0, EvaluationPeriods: 1 });
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: only('AWS::SNS::Topic')[0] }]);
    expect(exportFunction.Properties).toMatchObject({
      Handler: bundledHandler(EXPORT_HANDLER),
      Runtime: 'nodejs24.x',
      Environment: { Variables: expect.objectContaining({ TABLE_ARN: tableArn, EXPORT_BUCKET: { Ref: bucketId }, EXPORT_KEY_ARN: exportKeyArn }) },
    });
  });

  it('grants the export function the export of this table into exports/ and nothing more of DynamoDB or S3', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((policy) => JSON.stringify(policy.Properties.Roles).includes('ExportTableRole'));
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as Statement[];
    const granted = statements.map((statement) => ({ effect: statement.Effect, actions: [statement.Action].flat().sort(), resource: statement.Resource }));
    const byService = (service: string) => granted.filter((statement) => statement.actions.some((action) => action.startsWith(`${service}:`)));
    expect(byService('dynamodb')).toEqual([{ effect: 'Allow', actions: ['dynamodb:ExportTableToPointInTime'], resource: tableArn }]);
    expect(byService('s3')).toEqual([{ effect: 'Allow', actions: ['s3:AbortMultipartUpload', 's3:PutObject', 's3:PutObjectAcl'], resource: { 'Fn::Join': ['', [bucketArn, '/exports/*']] } }]);
    // The rest: its own log group, X-Ray, and sending its failures to its queue.
    expect(byService('sqs')).toEqual([{ effect: 'Allow', actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'], resource: queueArn }]);
    // The export key's, to write the objects SSE-KMS.
    expect(byService('kms')).toEqual([{ effect: 'Allow', actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resource: exportKeyArn }]);
    expect(granted.flatMap((statement) => statement.actions).sort()).toEqual([
      'dynamodb:ExportTableToPointInTime',
      'kms:Decrypt',
      'kms:GenerateDataKey',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      's3:AbortMultipartUpload',
      's3:PutObject',
      's3:PutObjectAcl',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });

  it('catalogs the exports as one Glue table, a partition per day projected from the prefix (no crawler)', () => {
    template.hasResourceProperties('AWS::Glue::Database', { DatabaseInput: { Name: 'pipeline' } });
    const [, table] = only('AWS::Glue::Table');
    const input = table.Properties.TableInput;
    expect(table.Properties.DatabaseName).toBe('pipeline');
    expect(input).toMatchObject({ Name: 'items', TableType: 'EXTERNAL_TABLE', PartitionKeys: [{ Name: 'dt', Type: 'string' }] });
    expect(input.Parameters).toEqual({
      classification: 'json',
      'projection.enabled': 'true',
      'projection.dt.type': 'date',
      'projection.dt.format': 'yyyy-MM-dd',
      'projection.dt.range': 'NOW-35DAYS,NOW',
      'projection.dt.interval': '1',
      'projection.dt.interval.unit': 'DAYS',
      'storage.location.template': inBucket('/exports/dt=${dt}/AWSDynamoDB/'),
    });
    // The projection reaches back exactly as far as the bucket keeps exports.
    expect(input.Parameters['projection.dt.range']).toBe(`NOW-${bucket.Properties.LifecycleConfiguration.Rules[0].ExpirationInDays}DAYS,NOW`);
    expect(input.StorageDescriptor).toMatchObject({
      Location: inBucket('/exports/'),
      SerdeInfo: { SerializationLibrary: 'org.openx.data.jsonserde.JsonSerDe', Parameters: { 'ignore.malformed.json': 'true' } },
      Columns: [{ Name: 'item', Type: 'struct<pk:struct<s:string>,sk:struct<s:string>,entity:struct<s:string>,status:struct<s:string>,source:struct<s:string>,value:struct<n:string>,createdat:struct<s:string>,wonat:struct<s:string>>' }],
    });
  });

  it('gives Athena a workgroup whose settings bind every query: results encrypted in the bucket, at most 10 GB scanned', () => {
    const [, workgroup] = only('AWS::Athena::WorkGroup');
    expect(workgroup.Properties).toMatchObject({
      Name: 'pipeline-analytics',
      State: 'ENABLED',
      WorkGroupConfiguration: {
        EnforceWorkGroupConfiguration: true,
        PublishCloudWatchMetricsEnabled: true,
        BytesScannedCutoffPerQuery: 10 * 1024 ** 3,
        ResultConfiguration: { OutputLocation: inBucket('/athena-results/'), EncryptionConfiguration: { EncryptionOption: 'SSE_KMS', KmsKey: exportKeyArn } },
      },
    });
  });

  it('encrypts the exports with a key of their own, rotated, whose policy names the export and the query roles alone, through S3, and lets the account only administer it', () => {
    expect(exportKey.Properties.EnableKeyRotation).toBe(true);
    expect(exportKey.DeletionPolicy).toBe('Retain');
    type KeyStatement = { Sid?: string; Effect: string; Principal: { AWS: unknown }; Action: string | string[]; Condition?: Record<string, any> };
    const statements = exportKey.Properties.KeyPolicy.Statement as KeyStatement[];
    const exportRoleArn = { 'Fn::GetAtt': [Object.keys(template.findResources('AWS::IAM::Role')).find((id) => id.startsWith('ExportTableRole'))!, 'Arn'] };
    const queryRoleArn = { 'Fn::GetAtt': [queryRoleId, 'Arn'] };
    const using = statements.filter((statement) => [statement.Action].flat().some((action) => ['kms:Decrypt', 'kms:GenerateDataKey', 'kms:Encrypt', 'kms:*'].includes(action)));
    expect(using.map((statement) => [statement.Principal.AWS, [statement.Action].flat().sort()])).toEqual([
      [exportRoleArn, ['kms:Decrypt', 'kms:GenerateDataKey']],
      [queryRoleArn, ['kms:Decrypt', 'kms:GenerateDataKey']],
    ]);
    for (const statement of using) expect(statement.Condition).toEqual({ StringEquals: { 'kms:ViaService': { 'Fn::Join': ['', ['s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] } } });
    // The account administers the key (IAM decides who) but encrypts and decrypts nothing with it.
    const [administration] = statements.filter((statement) => statement.Sid === 'Administration');
    expect(JSON.stringify(administration!.Principal.AWS)).toContain(':root');
    expect([administration!.Action].flat().filter((action) => /^kms:(\*|Decrypt|Encrypt|GenerateDataKey|ReEncrypt)/.test(action))).toEqual([]);
    expect(statements).toHaveLength(3);
  });

  it('gives the query role Athena in the workgroup, the catalog’s table, the exports to read and the results to write, the export key, and no grant on the key sealing secrets in the table', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((policy) => JSON.stringify(policy.Properties.Roles).includes(queryRoleId));
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as Statement[];
    const actions = statements.flatMap((statement) => [statement.Action].flat()).sort();
    expect(actions.filter((action) => action.startsWith('kms:'))).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    // Its KMS grant is the export key's alone: the secrets in an export stay ciphertext to it.
    expect(statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('kms:'))).map((statement) => statement.Resource)).toEqual([exportKeyArn]);
    expect(actions.filter((action) => action.startsWith('s3:'))).toEqual(['s3:AbortMultipartUpload', 's3:GetBucketLocation', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    expect(actions.filter((action) => action.startsWith('athena:') || action.startsWith('glue:'))).toHaveLength(8);
    expect(JSON.stringify(policies)).not.toContain('kms:ResourceAliases');
  });

  it('passes cdk-nag, acknowledging only what its reasons say of the template', () => {
    const acknowledged = analytics!.node
      .findAll()
      .flatMap((construct) =>
        construct.node.metadata
          .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((entry) => Object.keys(entry.data as Record<string, string>).map((rule) => `${construct.node.path}: ${rule.replace(/^Annotation::/, '')}`)),
      );
    expect(acknowledged.sort()).toEqual([
      'SalesPipelineAnalytics/Alarms: AwsSolutions-SNS2',
      'SalesPipelineAnalytics/Bucket: AwsSolutions-S1',
      `SalesPipelineAnalytics/ExportFailures: AwsSolutions-SQS3`,
      `SalesPipelineAnalytics/ExportTable: AwsSolutions-IAM5[Resource::*]`,
      `SalesPipelineAnalytics/ExportTable: AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/exports/*]`,
      `SalesPipelineAnalytics/QueryRole: AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/athena-results/*]`,
      `SalesPipelineAnalytics/QueryRole: AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/exports/*]`,
    ]);
    // A finding no acknowledgement covers fails the synth (cdk-nag is a validation plugin of the app).
    expect(() => app.synth()).not.toThrow();
  });
});

describe('the export function', () => {
  const target = { tableArn: 'arn:aws:dynamodb:ap-southeast-2:123456789012:table/pipeline', bucket: 'pipeline-analytics-bucket', kmsKeyArn: 'arn:aws:kms:ap-southeast-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' };
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  // DynamoDB Local has no ExportTableToPointInTime, so the request is checked as the SDK client receives it.
  const recordingClient = () => {
    const sent: ExportTableToPointInTimeCommand[] = [];
    const client = {
      send: async (command: ExportTableToPointInTimeCommand) => {
        sent.push(command);
        return { ExportDescription: { ExportArn: `${target.tableArn}/export/01234567890123-abcdefgh`, ExportStatus: 'IN_PROGRESS' } };
      },
    };
    return { sent, client: client as never };
  };
  const loadModule = async () => {
    vi.stubEnv('TABLE_ARN', target.tableArn);
    vi.stubEnv('EXPORT_BUCKET', target.bucket);
    vi.stubEnv('EXPORT_KEY_ARN', target.kmsKeyArn);
    return import('../functions/reports/export');
  };

  it('asks for a full export of the table as of the schedule’s time, below that day’s prefix, with the day as its client token', async () => {
    const { exportHandler } = await loadModule();
    const { sent, client } = recordingClient();
    const result = await exportHandler(client, target)({ time: '2026-03-15T17:00:00Z' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(ExportTableToPointInTimeCommand);
    expect(sent[0]!.input).toEqual({
      TableArn: target.tableArn,
      ExportTime: new Date('2026-03-15T17:00:00Z'),
      S3Bucket: target.bucket,
      S3Prefix: 'exports/dt=2026-03-15',
      ExportFormat: 'DYNAMODB_JSON',
      ExportType: 'FULL_EXPORT',
      ClientToken: '2026-03-15',
      // Encrypted with the bucket's key (SSE-KMS), as the bucket's default is.
      S3SseAlgorithm: 'KMS',
      S3SseKmsKeyId: target.kmsKeyArn,
    });
    expect(result).toEqual({ exportArn: `${target.tableArn}/export/01234567890123-abcdefgh`, prefix: 'exports/dt=2026-03-15' });
  });

  it('repeats the same request when the same day’s event is retried later, so DynamoDB starts no second export', async () => {
    const { exportHandler } = await loadModule();
    const { sent, client } = recordingClient();
    const handler = exportHandler(client, target);
    await handler({ time: '2026-03-15T17:00:00Z' });
    vi.useFakeTimers({ now: new Date('2026-03-15T21:30:00Z') });
    try {
      await handler({ time: '2026-03-15T17:00:00Z' });
    } finally {
      vi.useRealTimers();
    }
    expect(sent[1]!.input).toEqual(sent[0]!.input);
    // The next day is a new export, in its own partition.
    await handler({ time: '2026-03-16T17:00:00Z' });
    expect([sent[2]!.input.ClientToken, sent[2]!.input.S3Prefix]).toEqual(['2026-03-16', 'exports/dt=2026-03-16']);
  });

  it('writes where the Glue table’s partition projection reads a day', async () => {
    const { exportRequest } = await loadModule();
    const { S3Prefix } = exportRequest(new Date('2026-03-15T17:00:00Z'), target);
    const [, table] = only('AWS::Glue::Table');
    const [, [, , projected]] = table.Properties.TableInput.Parameters['storage.location.template']['Fn::Join'];
    // The export writes below `<prefix>/AWSDynamoDB/<export id>/data/`.
    expect(`/${S3Prefix}/AWSDynamoDB/`).toBe((projected as string).replace('${dt}', '2026-03-15'));
  });

  it('stops its container loudly when a setting is missing', async () => {
    vi.stubEnv('TABLE_ARN', target.tableArn);
    vi.stubEnv('EXPORT_BUCKET', '');
    await expect(import('../functions/reports/export')).rejects.toThrow('Missing required environment variable EXPORT_BUCKET');
  });
});

import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { STREAM_RETRIES } from '../infra/cdk/events-stack';
import { DELIVERY_BATCH, deliveries } from '../functions/webhooks/channels';
import { automationSteps } from '../functions/automations/engine/channels';
import { automationQueueNames } from '../functions/automations/engine/capability';
import { lateAfterSeconds } from '../infra/cdk/events/channels';
import { deliveryQueueNames } from '../functions/webhooks/capability';
import { smsConfigurationSetName } from '../functions/sms/capability';
import { streamArnParameterName } from '../infra/cdk/data-stack';
import { DEFAULT_CONCURRENCY } from '../infra/cdk/options';
import { sendSms } from '../functions/sms/routes';
import { listWebhookDeliveries, redeliverEvent } from '../functions/webhooks/routes';
import { routeId, type RouteDefinition } from '#shared/routes/route';
import { routes } from '../functions/resources';
import { RECEIPT_EVENT_TYPES } from '../functions/sms/receipt-types';
import { webhookSettings } from '../functions/webhooks/settings';
import { WEBHOOK_LIMITS } from '../functions/webhooks/limits';
import { batchesOf } from '../functions/webhooks/sqs-queue';
import { resourceChangesOf } from '../functions/resource-changes';
import { WEBHOOK_EXPIRY } from '../functions/webhooks/entity';

// Asset bundling is left to `npm run synth`; here only the templates matter.
const { api, data, events } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline', smsOriginationIdentity: 'pool-0123456789abcdef' } }));
const template = Template.fromStack(events);

type Resource = { Properties: Record<string, any> };
const policies = template.findResources('AWS::IAM::Policy') as Record<string, Resource>;
const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;

const policyOf = (constructId: string) => Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${constructId}Role`))![1].Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[];
const actionsOf = (constructId: string, service: string) => policyOf(constructId).flatMap((s) => [s.Action].flat()).filter((action) => action.startsWith(`${service}:`)).sort();
const functionOf = (constructId: string) => Object.entries(functions).find(([logicalId]) => logicalId.startsWith(`${constructId}Function`))![1];

describe('the events stack', () => {
  it('traces its functions only as part of a sampled API request, never on X-Ray’s default rule (nearly every invocation at low traffic)', () => {
    expect(Object.keys(functions).length).toBeGreaterThanOrEqual(5);
    for (const [id, fn] of Object.entries(functions)) expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'PassThrough' });
    // The API's own stay active, sampled by the stage's rule at traceSampleRate.
    const apiFunctions = Object.values(Template.fromStack(api).findResources('AWS::Lambda::Function') as Record<string, Resource>);
    for (const fn of apiFunctions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it('turns on the table stream with old and new images', () => {
    Template.fromStack(data).hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  });

  const streamMapping = (consumer = 'RecordEvents') => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter(
      (mapping) => mapping.Properties.StartingPosition && String(mapping.Properties.FunctionName.Ref).startsWith(`${consumer}Function`),
    );
    expect(mappings).toHaveLength(1);
    return mappings[0]!.Properties;
  };

  it('reads the stream from the start of what it holds, taking partial batch responses, and parks a record that fails 10 retries or is 6 hours old', () => {
    const failures = Object.entries(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).find(([id]) => id.startsWith('StreamFailures'))!;
    expect(streamMapping()).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: STREAM_RETRIES.attempts,
      MaximumRecordAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failures[0], 'Arn'] } } },
      // Ten batches of a shard at once, by partition key: one organization's burst of writes holds back only the
      // organizations whose keys share its batches.
      ParallelizationFactor: 10,
    });
    expect(STREAM_RETRIES.attempts).toBe(10);
    expect(failures[1].Properties.MessageRetentionPeriod).toBe(14 * 86_400);
  });

  // A record passes a mapping's filter when its item's entity, new or old (a delete has only the old), is listed.
  const entitiesFilter = (entities: readonly string[]) => ({
    Filters: ['NewImage', 'OldImage'].map((image) => ({ Pattern: JSON.stringify({ dynamodb: { [image]: { entity: { S: entities } } } }) })),
  });

  it('hands each stream reader only the records it reads: the consumer the changes with events or audit entries and webhook expiries, the counter the counted records', () => {
    // The consumer's index of changes by entity (generated from the resources) is what it reads; with a webhook's expiry.
    const recordEvents = [...Object.keys(resourceChangesOf), WEBHOOK_EXPIRY];
    expect(recordEvents).toEqual(expect.arrayContaining(['LEAD', 'INQUIRY', 'SMS_MESSAGE', 'AUTOMATION_RUN', 'WEBHOOK', 'API_KEY']));
    expect(streamMapping().FilterCriteria).toEqual(entitiesFilter(recordEvents));
    expect(streamMapping('CountReports').FilterCriteria).toEqual(entitiesFilter(['LEAD', 'INQUIRY', 'SMS_MESSAGE', 'APPOINTMENT', 'SMS_OPT_OUT', 'AUTOMATION_RUN']));
    // Lambda's limit on a filter's pattern.
    for (const { Pattern } of streamMapping().FilterCriteria.Filters) expect(Pattern.length).toBeLessThanOrEqual(4_096);
  });

  it('counts the reports with a second reader of the stream: the same settings, its own failures queue and alarms, and grants for its transaction alone', () => {
    const streamMappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter((mapping) => mapping.Properties.StartingPosition);
    // DynamoDB Streams advise at most two readers per shard: these are the two.
    expect(streamMappings).toHaveLength(2);
    const [failuresId, failures] = Object.entries(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).find(([id]) => id.startsWith('ReportCountFailures'))!;
    const { DestinationConfig, ...settings } = streamMapping('CountReports');
    const { DestinationConfig: _theirs, EventSourceArn: _arn, FunctionName: _name, ParallelizationFactor: _parallel, FilterCriteria: _filter, ...recordEvents } = streamMapping();
    expect(settings).toMatchObject(recordEvents);
    // One batch of a shard at a time: its transactions add to an organization's day counters, which concurrent batches would contend for.
    expect(settings.ParallelizationFactor).toBeUndefined();
    expect(DestinationConfig).toEqual({ OnFailure: { Destination: { 'Fn::GetAtt': [failuresId, 'Arn'] } } });
    expect(failures.Properties.MessageRetentionPeriod).toBe(14 * 86_400);
    const alarms = template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>;
    const waiting = Object.entries(alarms).find(([id]) => id.startsWith('ReportCountFailuresWaiting'))![1];
    expect(waiting.Properties.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [failuresId, 'QueueName'] } }]);
    expect(Object.entries(alarms).find(([id]) => id.startsWith('ReportCountFallingBehind'))![1].Properties).toMatchObject({ MetricName: 'IteratorAge', Threshold: 300_000 });
    expect(functionOf('CountReports').Properties.ReservedConcurrentExecutions).toBe(DEFAULT_CONCURRENCY.streamConsumer);
    expect(actionsOf('CountReports', 'dynamodb').filter((action) => !/Stream|Shard|GetRecords/.test(action))).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });

  it('finds the table by name and its stream by the data stack’s SSM parameter, resolved at deploy: no export locks the table', () => {
    const parameterName = streamArnParameterName('pipeline');
    const [parameterId] = Object.entries(template.toJSON().Parameters as Record<string, { Type: string; Default: string }>).find(([, parameter]) => parameter.Default === parameterName)!;
    expect(template.toJSON().Parameters[parameterId].Type).toBe('AWS::SSM::Parameter::Value<String>');
    expect(streamMapping().EventSourceArn).toEqual({ Ref: parameterId });
    const [tableId] = Object.keys(Template.fromStack(data).findResources('AWS::DynamoDB::GlobalTable'));
    Template.fromStack(data).hasResourceProperties('AWS::SSM::Parameter', { Name: parameterName, Type: 'String', Value: { 'Fn::GetAtt': [tableId, 'StreamArn'] } });
    for (const stack of [data, events]) {
      const json = JSON.stringify(Template.fromStack(stack).toJSON());
      expect(json).not.toContain('Fn::ImportValue');
      expect(json).not.toContain('"Export"');
    }
    expect(JSON.stringify(policyOf('RecordEvents'))).toContain(':table/pipeline');
    // Deployed after the data stack, which makes the table and the parameter.
    expect(events.dependencies.map((stack) => stack.stackName)).toContain(data.stackName);
  });

  it('keeps 10 stream consumers at most, reserved for it, and starts 10 deliveries at once at most; each changes by context', () => {
    expect(functionOf('RecordEvents').Properties.ReservedConcurrentExecutions).toBe(DEFAULT_CONCURRENCY.streamConsumer);
    expect(DEFAULT_CONCURRENCY.streamConsumer).toBe(10);
    const deliveryMapping = (stackTemplate: Template) => Object.values(stackTemplate.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).find((mapping) => mapping.Properties.BatchSize === 3)!.Properties;
    expect(deliveryMapping(template).ScalingConfig).toEqual({ MaximumConcurrency: DEFAULT_CONCURRENCY.deliveries });
    expect(DEFAULT_CONCURRENCY.deliveries).toBe(10);
    const tuned = Template.fromStack(buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', streamConcurrency: 4, deliveryConcurrency: 50 } })).events);
    const recordEvents = Object.entries(tuned.findResources('AWS::Lambda::Function') as Record<string, Resource>).find(([id]) => id.startsWith('RecordEventsFunction'))![1];
    expect(recordEvents.Properties.ReservedConcurrentExecutions).toBe(4);
    expect(deliveryMapping(tuned).ScalingConfig).toEqual({ MaximumConcurrency: 50 });
    const unset = Template.fromStack(buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', streamConcurrency: 'none', deliveryConcurrency: 'none' } })).events);
    expect(Object.values(unset.findResources('AWS::Lambda::Function') as Record<string, Resource>).map((fn) => fn.Properties.ReservedConcurrentExecutions)).toEqual(Object.keys(unset.findResources('AWS::Lambda::Function')).map(() => undefined));
    expect(deliveryMapping(unset).ScalingConfig).toBeUndefined();
    // Lambda takes 2 to 1000 for an SQS source.
    expect(() => buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', deliveryConcurrency: 1 } }))).toThrow(/deliveryConcurrency must be a number from 2 to 1000/);
  });

  it('keeps every dead letter longer than its source queue keeps a message: a dead letter keeps its first enqueue time', () => {
    const withAnalytics = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline', analytics: 'true' } }));
    const stacks = [data, events, api, ...api.functionStacks.values(), withAnalytics.analytics!];
    /** SQS keeps a message 4 days unless told. */
    const keeps = (queue: Resource | undefined) => (queue?.Properties.MessageRetentionPeriod as number | undefined) ?? 4 * 86_400;
    const pairs = stacks.flatMap((stack) => {
      const queues = Template.fromStack(stack).findResources('AWS::SQS::Queue') as Record<string, Resource>;
      return Object.entries(queues)
        .filter(([, queue]) => queue.Properties.RedrivePolicy)
        .map(([id, queue]) => [id, keeps(queue), keeps(queues[(queue.Properties.RedrivePolicy as { deadLetterTargetArn: { 'Fn::GetAtt': [string] } }).deadLetterTargetArn['Fn::GetAtt'][0]])] as const);
    });
    expect(pairs.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['AutomationEnrolments', 'AutomationSteps', 'Deliveries', 'ReportRebuilds', 'SignInCodes']);
    expect(pairs.filter(([, source, deadLetters]) => deadLetters <= source)).toEqual([]);
  });

  it('queues deliveries in SQS with a dead-letter queue, and the delivery function reports failures per message', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 5 }, SqsManagedSseEnabled: true });
    // Retention set, not SQS's 4-day default, and shorter than the dead letters': a redriven message keeps its first enqueue time.
    const names = deliveryQueueNames('pipeline');
    const retention = (name: string) => Object.values(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).find((queue) => queue.Properties.QueueName === name)!.Properties.MessageRetentionPeriod;
    expect([retention(names.queue), retention(names.deadLetters)]).toEqual([7 * 86_400, 14 * 86_400]);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 3 });
    expect(Object.keys(functionOf('DeliverWebhooks').Properties.Environment.Variables)).toEqual(expect.arrayContaining(['WEBHOOK_QUEUE_URL', 'WEBHOOK_DLQ_URL', 'TABLE_NAME']));
    expect(functionOf('DeliverWebhooks').Properties.Environment.Variables.WEBHOOK_URLS_ALLOW_PRIVATE).toBeUndefined();
  });

  it('takes a job as large as SQS allows on every queue, and sends jobs in batches of at most 10 messages and 1 MiB in all', () => {
    const sizes = Object.values(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).map((queue) => queue.Properties.MaximumMessageSize);
    expect(new Set(sizes)).toEqual(new Set([WEBHOOK_LIMITS.maxJobBytes]));
    expect(WEBHOOK_LIMITS.maxJobBytes).toBe(1_048_576);
    const sizesOf = (batches: number[][]) => batches.map((batch) => batch.length);
    // Ten of one large record's subscribers pass the limit together, so they go three to a batch.
    expect(sizesOf(batchesOf(Array(10).fill(300_000), (bytes) => bytes))).toEqual([3, 3, 3, 1]);
    expect(sizesOf(batchesOf(Array(25).fill(2_000), (bytes) => bytes))).toEqual([10, 10, 5]);
    // Exactly the limit fits; a byte more starts a batch.
    expect(sizesOf(batchesOf([524_288, 524_288, 1], (bytes) => bytes))).toEqual([2, 1]);
    expect(batchesOf([], (bytes: number) => bytes)).toEqual([]);
  });

  it('gives the delivery function time for a whole batch of receivers that each take the full timeout, with each attempt’s reads and writes, and hides a message six times that long', () => {
    // A function timing out fails its whole batch: every message comes back after the visibility timeout, and the
    // attempts that had completed are made again (a second POST to receivers that succeeded).
    const [functionId, deliverWebhooks] = Object.entries(functions).find(([id]) => id.startsWith('DeliverWebhooksFunction'))!;
    const mapping = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).find((candidate) => JSON.stringify(candidate.Properties.FunctionName).includes(functionId))!;
    const batchSize = mapping.Properties.BatchSize as number;
    const timeoutMs = (deliverWebhooks.Properties.Timeout as number) * 1000;
    // A second per message for its GetItem, PutItem, UpdateItem and SQS send is the least it needs.
    expect(timeoutMs).toBeGreaterThanOrEqual(batchSize * (webhookSettings.timeoutMs + 1_000));
    expect([batchSize, timeoutMs / 1000]).toEqual([DELIVERY_BATCH.size, DELIVERY_BATCH.functionTimeoutSeconds]);
    const queue = Object.values(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).find((candidate) => candidate.Properties.QueueName === deliveryQueueNames('pipeline').queue)!;
    expect(queue.Properties.VisibilityTimeout).toBe(6 * (timeoutMs / 1000));
  });

  it('grants each function exactly the DynamoDB actions it uses', () => {
    expect(actionsOf('RecordEvents', 'dynamodb')).toEqual(expect.arrayContaining(['dynamodb:BatchWriteItem', 'dynamodb:Query']));
    // Besides events and their audit entries, it starts, stops and moves automation runs, and texts admins their
    // owner alerts (a member and the organization read at once).
    expect(actionsOf('RecordEvents', 'dynamodb').filter((action) => !/Stream|Shard|GetRecords/.test(action))).toEqual(
      ['BatchGetItem', 'BatchWriteItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'].map((action) => `dynamodb:${action}`),
    );
    expect(actionsOf('RecordEvents', 'sms-voice')).toEqual(['sms-voice:SendTextMessage']);
    expect(actionsOf('DeliverWebhooks', 'dynamodb')).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(actionsOf('SmsReceipts', 'dynamodb')).toEqual(['dynamodb:UpdateItem']);
    expect(actionsOf('RecordEvents', 'sqs')).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    // Its only queue is where Lambda records its invocations that failed every retry.
    expect(actionsOf('SmsReceipts', 'sqs')).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    const [failuresId] = Object.keys(template.findResources('AWS::SQS::Queue')).filter((id) => id.startsWith('SmsReceiptFailures'));
    expect(policyOf('SmsReceipts').filter((s) => [s.Action].flat().some((action) => action.startsWith('sqs:'))).map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [failuresId, 'Arn'] }]);
  });

  it('sends SMS receipts through a configuration set to SNS and a receipts function', () => {
    template.hasResourceProperties('AWS::SMSVOICE::ConfigurationSet', {
      ConfigurationSetName: smsConfigurationSetName('pipeline'),
      EventDestinations: [{ EventDestinationName: 'receipts', Enabled: true, MatchingEventTypes: RECEIPT_EVENT_TYPES, SnsDestination: { TopicArn: Match.anyValue() } }],
    });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda' });
  });

  it('takes replies from an SNS topic the numbers’ two-way channel publishes to, and looks up by number and phone', () => {
    expect(actionsOf('InboundSmsReplies', 'dynamodb')).toEqual(['dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    template.hasOutput('InboundSmsTopic', { Value: Match.anyValue() });
    expect(Object.keys(template.findResources('AWS::SNS::Subscription'))).toHaveLength(2);
  });

  it.each([
    ['InboundSmsReplies', 'InboundSms', 'SmsReplyFailures'],
    ['SmsReceipts', 'SmsEvents', 'SmsReceiptFailures'],
  ])('keeps what %s could not take from its SNS topic in a queue that pages: invocations that failed every retry, and notifications SNS could not deliver', (functionName, topicName, queueName) => {
    const [functionId] = Object.entries(functions).find(([id]) => id.startsWith(`${functionName}Function`))!;
    const [queueId, queue] = Object.entries(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).find(([id]) => id.startsWith(queueName))!;
    const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
    expect(queue.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
    // Lambda's record of an invocation that failed its two retries.
    const configs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig') as Record<string, Resource>).filter((config) => config.Properties.FunctionName.Ref === functionId);
    expect(configs.map((config) => config.Properties)).toEqual([expect.objectContaining({ MaximumRetryAttempts: 2, DestinationConfig: { OnFailure: { Destination: queueArn } } })]);
    expect(actionsOf(functionName, 'sqs')).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    // A notification SNS could not hand to the function at all.
    const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic')).filter((id) => id.startsWith(topicName));
    const subscriptions = Object.values(template.findResources('AWS::SNS::Subscription') as Record<string, Resource>).filter((subscription) => subscription.Properties.TopicArn.Ref === topicId);
    expect(subscriptions.map((subscription) => subscription.Properties)).toEqual([
      expect.objectContaining({ Protocol: 'lambda', Endpoint: { 'Fn::GetAtt': [functionId, 'Arn'] }, RedrivePolicy: { deadLetterTargetArn: queueArn } }),
    ]);
    const queuePolicy = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>).find((policy) => JSON.stringify(policy.Properties.Queues).includes(queueId))!;
    expect(queuePolicy.Properties.PolicyDocument.Statement).toEqual(expect.arrayContaining([expect.objectContaining({ Effect: 'Allow', Action: 'sqs:SendMessage', Principal: { Service: 'sns.amazonaws.com' } })]));
    // Any message waiting pages the events stack's topic.
    const [alarmsTopic] = Object.keys(template.findResources('AWS::SNS::Topic')).filter((id) => id.startsWith('Alarms'));
    const alarm = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>).find((candidate) => JSON.stringify(candidate.Properties.Dimensions ?? []).includes(queueId))!;
    expect(alarm.Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [{ Ref: alarmsTopic }] });
  });

  it('alarms on dead letters, on each stream reader falling behind and on each worker’s queue holding old messages', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>);
    expect(alarms.map((alarm) => alarm.Properties.MetricName).sort()).toEqual([
      ...Array(5).fill('ApproximateAgeOfOldestMessage'),
      ...Array(10).fill('ApproximateNumberOfMessagesVisible'),
      ...Array(6).fill('Errors'),
      'IsolationProven',
      'IteratorAge',
      'IteratorAge',
      'Throttles',
      'Throttles',
    ]);
  });

  it('pages when the isolation canary proves no refusal in three periods in a row, a run missing counting as none', () => {
    const [alarmsTopic] = Object.keys(template.findResources('AWS::SNS::Topic')).filter((id) => id.startsWith('Alarms'));
    const [missing, ...more] = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>).filter((alarm) => alarm.Properties.MetricName === 'IsolationProven');
    expect(more).toEqual([]);
    expect(missing!.Properties).toMatchObject({ Namespace: 'SalesPipeline', Statistic: 'Sum', Period: 300, Threshold: 1, ComparisonOperator: 'LessThanThreshold', EvaluationPeriods: 3, TreatMissingData: 'breaching', AlarmActions: [{ Ref: alarmsTopic }] });
  });

  it('pages when a stream reader is throttled at its reserved concurrency in two 5-minute periods in a row, for each stream reader', () => {
    const [alarmsTopic] = Object.keys(template.findResources('AWS::SNS::Topic')).filter((id) => id.startsWith('Alarms'));
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    const streamReaders = Object.entries(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>)
      .filter(([, mapping]) => mapping.Properties.StartingPosition)
      .map(([, mapping]) => mapping.Properties.FunctionName.Ref as string);
    expect(streamReaders).toHaveLength(2);
    const throttled = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>).filter((alarm) => alarm.Properties.MetricName === 'Throttles');
    expect(throttled.map((alarm) => alarm.Properties.Dimensions[0].Value.Ref).sort()).toEqual([...streamReaders].sort());
    for (const alarm of throttled) {
      expect(alarm.Properties).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Period: 300, EvaluationPeriods: 2, Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching', AlarmActions: [{ Ref: alarmsTopic }] });
      expect(functions[alarm.Properties.Dimensions[0].Value.Ref]!.Properties.ReservedConcurrentExecutions).toBe(DEFAULT_CONCURRENCY.streamConsumer);
    }
  });

  it('pages when the oldest webhook delivery has waited 25 minutes or the oldest automation step 15: past what one message shows (its senders’ delay, then two failed receives, after which SQS stops counting it)', () => {
    const [alarmsTopic] = Object.keys(template.findResources('AWS::SNS::Topic')).filter((id) => id.startsWith('Alarms'));
    const queueIdOf = (name: string) => Object.entries(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).find(([, queue]) => queue.Properties.QueueName === name)![0];
    const lateAlarms = (name: string) =>
      Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>).filter(
        (alarm) => alarm.Properties.MetricName === 'ApproximateAgeOfOldestMessage' && JSON.stringify(alarm.Properties.Dimensions) === JSON.stringify([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueIdOf(name), 'QueueName'] } }]),
      );
    const paging = { Namespace: 'AWS/SQS', Statistic: 'Maximum', Period: 300, EvaluationPeriods: 1, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching', AlarmActions: [{ Ref: alarmsTopic }] };
    expect(lateAlarms(deliveryQueueNames('pipeline').queue).map((alarm) => alarm.Properties)).toEqual([expect.objectContaining({ ...paging, Threshold: 25 * 60 })]);
    expect(lateAlarms(automationQueueNames('pipeline').queue).map((alarm) => alarm.Properties)).toEqual([expect.objectContaining({ ...paging, Threshold: 15 * 60 })]);
    // A delivery's retry is delayed up to SQS's 15 minutes and hidden 270 s on each failed receive; a step is sent when due and hidden 360 s.
    expect(deliveries.visibilityTimeoutSeconds).toBe(270);
    expect(automationSteps.visibilityTimeoutSeconds).toBe(360);
    expect(lateAfterSeconds(deliveries)).toBeGreaterThan(15 * 60 + 2 * deliveries.visibilityTimeoutSeconds);
    expect(lateAfterSeconds(automationSteps)).toBeGreaterThan(2 * automationSteps.visibilityTimeoutSeconds);
    // Rounded up to whole 5 minutes: 25 and 15, as docs/operations.md states them.
    expect([lateAfterSeconds(deliveries), lateAfterSeconds(automationSteps)]).toEqual([25 * 60, 15 * 60]);
  });
});

describe('the stacks’ order', () => {
  it('deploys the API after the events stack, whose queues its routes send to by name: a first deploy never has a route answer 500 for a queue not yet made', () => {
    const queueArns = Object.values(template.findResources('AWS::SQS::Queue') as Record<string, Resource>).map((queue) => `:${queue.Properties.QueueName}`);
    const sending = [...api.functionStacks.values()].flatMap((stack) =>
      Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy') as Record<string, Resource>)
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((statement) => [statement.Action].flat().includes('sqs:SendMessage') && queueArns.some((arn) => JSON.stringify(statement.Resource).includes(arn))),
    );
    // Routes that enrol leads (one by one or in bulk), cancel runs, redeliver webhooks, ask for sign-in codes and start recounts reach the events stack's queues.
    const queueOf = (statement: { Resource: unknown }) => queueArns.find((arn) => JSON.stringify(statement.Resource).includes(arn));
    expect(sending.map(queueOf).sort()).toEqual([':pipeline-automation-enrolments', ':pipeline-automation-steps', ':pipeline-automation-steps', ':pipeline-report-rebuilds', ':pipeline-sign-in-codes', ':pipeline-webhook-deliveries']);
    expect(api.dependencies.map((stack) => stack.stackName)).toEqual(expect.arrayContaining([data.stackName, events.stackName]));
    expect(events.dependencies.map((stack) => stack.stackName)).not.toContain(api.stackName);
  });
});

describe('the SMS-sending function', () => {
  const stack = api.functionStacks.get(sendSms.tag)!;
  const smsTemplate = Template.fromStack(stack);
  const fn = Object.entries(smsTemplate.findResources('AWS::Lambda::Function') as Record<string, Resource>).find(([id]) => id.startsWith(routeId(sendSms)))![1];

  it('uses End User Messaging SMS with the configuration set and the configured origination identity', () => {
    expect(fn.Properties.Environment.Variables).toMatchObject({ SMS_PROVIDER: 'end-user-messaging', SMS_CONFIGURATION_SET: 'pipeline-sms', SMS_ORIGINATION_IDENTITY: 'pool-0123456789abcdef' });
  });

  it('may call SendTextMessage and nothing else of End User Messaging', () => {
    const statements = Object.entries(smsTemplate.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter(([id]) => id.startsWith(routeId(sendSms)))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[]);
    expect(statements.flatMap((s) => [s.Action].flat()).filter((action) => action.startsWith('sms-voice:'))).toEqual(['sms-voice:SendTextMessage']);
  });
});

describe('the redelivery function', () => {
  const functionIn = (route: RouteDefinition) => {
    const routeTemplate = Template.fromStack(api.functionStacks.get(route.tag)!);
    const fn = Object.entries(routeTemplate.findResources('AWS::Lambda::Function') as Record<string, Resource>).find(([id]) => id.startsWith(routeId(route)))![1];
    const statements = Object.entries(routeTemplate.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter(([id]) => id.startsWith(routeId(route)))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    return { variables: fn.Properties.Environment.Variables as Record<string, unknown>, sqs: statements.filter((s) => [s.Action].flat().some((action) => action.startsWith('sqs:'))) };
  };

  it('queues on the events stack’s delivery queue, named alike in both stacks, and may only send to it', () => {
    const names = deliveryQueueNames('pipeline');
    template.hasResourceProperties('AWS::SQS::Queue', { QueueName: names.queue, RedrivePolicy: Match.anyValue() });
    template.hasResourceProperties('AWS::SQS::Queue', { QueueName: names.deadLetters });
    const { variables, sqs } = functionIn(redeliverEvent);
    expect(JSON.stringify(variables.WEBHOOK_QUEUE_URL)).toContain(`/${names.queue}`);
    expect(JSON.stringify(variables.WEBHOOK_DLQ_URL)).toContain(`/${names.deadLetters}`);
    expect(sqs).toHaveLength(1);
    expect([sqs[0]!.Action].flat().sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(JSON.stringify(sqs[0]!.Resource)).toContain(`:${names.queue}`);
    expect(JSON.stringify(sqs[0]!.Resource)).not.toContain(names.deadLetters);
  });

  it('is the only API function given the queue', () => {
    const others = routes.filter((route) => route.auth !== 'none' && !route.aliasOf && route.operationId !== redeliverEvent.operationId);
    expect(others.map((route) => route.operationId)).toContain(listWebhookDeliveries.operationId);
    // Other queues are other functions' (the automation steps' for enrolling and cancelling): only the delivery queue counts.
    const { queue, deadLetters } = deliveryQueueNames('pipeline');
    const given = others.filter((route) => {
      const { variables, sqs } = functionIn(route);
      return variables.WEBHOOK_QUEUE_URL !== undefined || sqs.some((statement) => [queue, deadLetters, '*'].some((name) => JSON.stringify(statement.Resource).includes(name === '*' ? name : `:${name}`)));
    });
    expect(given.map((route) => route.operationId)).toEqual([]);
  });
});

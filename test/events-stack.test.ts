import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { deliveryQueueNames, smsConfigurationSetName } from '../infra/cdk/events-stack';
import { sendSms } from '../functions/sms/routes';
import { listWebhookDeliveries, redeliverEvent } from '../functions/webhooks/routes';
import { routeId, type RouteDefinition } from '../shared/routes/route';
import { routes } from '../functions/resources';
import { RECEIPT_EVENT_TYPES } from '../shared/sms/receipt-types';

// Asset bundling is left to `npm run synth`; here only the templates matter.
const { api, data, events } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], tableName: 'pipeline', smsOriginationIdentity: 'pool-0123456789abcdef' } }));
const template = Template.fromStack(events);

type Resource = { Properties: Record<string, any> };
const policies = template.findResources('AWS::IAM::Policy') as Record<string, Resource>;
const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;

const policyOf = (constructId: string) => Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${constructId}Role`))![1].Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[];
const actionsOf = (constructId: string, service: string) => policyOf(constructId).flatMap((s) => [s.Action].flat()).filter((action) => action.startsWith(`${service}:`)).sort();
const functionOf = (constructId: string) => Object.entries(functions).find(([logicalId]) => logicalId.startsWith(`${constructId}Function`))![1];

describe('the events stack', () => {
  it('turns on the table stream with old and new images', () => {
    Template.fromStack(data).hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  });

  it('reads the stream from the start of what it holds, bisecting a failing batch, then sending it to a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: Match.anyValue(),
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });

  it('queues deliveries in SQS with a dead-letter queue, and the delivery function reports failures per message', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 5 }, SqsManagedSseEnabled: true });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 3 });
    expect(Object.keys(functionOf('DeliverWebhooks').Properties.Environment.Variables)).toEqual(expect.arrayContaining(['WEBHOOK_QUEUE_URL', 'WEBHOOK_DLQ_URL', 'TABLE_NAME']));
    expect(functionOf('DeliverWebhooks').Properties.Environment.Variables.WEBHOOK_URLS_ALLOW_PRIVATE).toBeUndefined();
  });

  it('grants each function exactly the DynamoDB actions it uses', () => {
    expect(actionsOf('RecordEvents', 'dynamodb')).toEqual(expect.arrayContaining(['dynamodb:BatchWriteItem', 'dynamodb:Query']));
    expect(actionsOf('RecordEvents', 'dynamodb').filter((action) => !/Stream|Shard|GetRecords/.test(action))).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:Query']);
    expect(actionsOf('DeliverWebhooks', 'dynamodb')).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(actionsOf('SmsReceipts', 'dynamodb')).toEqual(['dynamodb:UpdateItem']);
    expect(actionsOf('RecordEvents', 'sqs')).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(actionsOf('SmsReceipts', 'sqs')).toEqual([]);
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

  it('alarms on dead letters and on a stream falling behind', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>);
    expect(alarms.map((alarm) => alarm.Properties.MetricName).sort()).toEqual(['ApproximateNumberOfMessagesVisible', 'ApproximateNumberOfMessagesVisible', 'Errors', 'IteratorAge']);
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
    const given = others.filter((route) => {
      const { variables, sqs } = functionIn(route);
      return variables.WEBHOOK_QUEUE_URL !== undefined || sqs.length > 0;
    });
    expect(given.map((route) => route.operationId)).toEqual([]);
  });
});

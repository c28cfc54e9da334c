import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { automationSteps, STEP_BATCH } from '../functions/automations/engine/channels';
import { automationQueueNames } from '../functions/automations/engine/capability';
import { ApiStack } from '../infra/cdk/api-stack';
import { EventsStack } from '../infra/cdk/events-stack';
import { routes } from '../functions/resources';
import { routeId } from '#shared/routes/route';
import { readOptions } from '../infra/cdk/options';

// The automation engine as the events stack deploys it: the step queue, the one-time schedules that feed it, and the
// runner, each allowed what it needs and no more; what could not be handled pages.

type Resource = { Type: string; Properties: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, unknown>; Principal?: unknown };

const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline' } });
const template = Template.fromStack(new EventsStack(app, 'Events', { options: readOptions(app.node) })).toJSON();
const resources = template.Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const idOf = (type: string, prefix: string) => ofType(type).find(([id]) => id.startsWith(prefix))![0];
const queueId = (name: string) => ofType('AWS::SQS::Queue').find(([, queue]) => queue.Properties.QueueName === name)![0];
const statementsOf = (rolePrefix: string) => ofType('AWS::IAM::Policy').filter(([id]) => id.startsWith(rolePrefix)).flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
const withAction = (statements: Statement[], action: string) => statements.filter((statement) => [statement.Action].flat().includes(action));
const names = automationQueueNames('pipeline');

describe('the automation engine’s stack', () => {
  const schedulerRoleId = idOf('AWS::IAM::Role', 'AutomationStepsSchedulerRole');
  const runner = resources[idOf('AWS::Lambda::Function', 'RunAutomationStepsFunction')]!;

  it('makes the step queue with its dead letters after five receives, the schedule group and the schedules’ dead letters', () => {
    const stepsId = queueId(names.queue);
    expect(resources[stepsId]!.Properties).toMatchObject({ VisibilityTimeout: automationSteps.visibilityTimeoutSeconds, SqsManagedSseEnabled: true, RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [queueId(names.deadLetters), 'Arn'] }, maxReceiveCount: 5 } });
    expect(queueId(names.scheduleDeadLetters)).toBeDefined();
    expect(ofType('AWS::Scheduler::ScheduleGroup').map(([, group]) => group.Properties)).toEqual([{ Name: 'pipeline-automations' }]);
    const [[, mapping]] = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties.EventSourceArn).includes(stepsId)) as [[string, Resource]];
    expect(mapping.Properties).toMatchObject({ BatchSize: STEP_BATCH.size, FunctionResponseTypes: ['ReportBatchItemFailures'], FunctionName: { Ref: idOf('AWS::Lambda::Function', 'RunAutomationStepsFunction') } });
    expect(runner.Properties.Timeout).toBe(STEP_BATCH.functionTimeoutSeconds);
  });

  it('keeps the schedule group, and with it every pending step, when the stack deletes or replaces it', () => {
    const [[, group]] = ofType('AWS::Scheduler::ScheduleGroup') as [[string, Resource & { DeletionPolicy?: string; UpdateReplacePolicy?: string }]];
    expect([group.DeletionPolicy, group.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
  });

  it('lets EventBridge Scheduler, from this account and for the group’s schedules only, assume the schedules’ role, which may only send to the step queue and the schedules’ dead letters', () => {
    const role = resources[schedulerRoleId]!.Properties;
    // Scheduler gives the schedule's group as aws:SourceArn when it assumes the role.
    const groupArn = { 'Fn::GetAtt': [idOf('AWS::Scheduler::ScheduleGroup', 'AutomationSteps'), 'Arn'] };
    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'scheduler.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': groupArn } } },
    ]);
    const statements = statementsOf('AutomationStepsSchedulerRoleDefaultPolicy');
    expect(statements.map(({ Action }) => Action)).toEqual(['sqs:SendMessage']);
    expect(statements[0]!.Resource).toEqual([{ 'Fn::GetAtt': [queueId(names.queue), 'Arn'] }, { 'Fn::GetAtt': [queueId(names.scheduleDeadLetters), 'Arn'] }]);
  });

  it('lets the runner create and delete schedules in its group alone, and pass the schedules’ role to Scheduler alone', () => {
    const statements = statementsOf('RunAutomationStepsRoleDefaultPolicy');
    const scheduling = withAction(statements, 'scheduler:CreateSchedule');
    expect(scheduling).toHaveLength(1);
    expect([scheduling[0]!.Action].flat().sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
    expect(scheduling[0]!.Resource).toEqual({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':scheduler:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':schedule/pipeline-automations/*']] });
    expect(statements.flatMap(({ Action }) => [Action].flat()).filter((action) => action.startsWith('scheduler:')).sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
    const passing = withAction(statements, 'iam:PassRole');
    expect(passing).toEqual([expect.objectContaining({ Resource: { 'Fn::GetAtt': [schedulerRoleId, 'Arn'] }, Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } })]);
  });

  it('gives the runner what it makes schedules with, and what it texts with', () => {
    expect(runner.Properties.Environment.Variables).toMatchObject({
      AUTOMATION_QUEUE_URL: { Ref: queueId(names.queue) },
      AUTOMATION_SCHEDULE_GROUP: 'pipeline-automations',
      AUTOMATION_SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [schedulerRoleId, 'Arn'] },
      AUTOMATION_SCHEDULE_DLQ_ARN: { 'Fn::GetAtt': [queueId(names.scheduleDeadLetters), 'Arn'] },
      SMS_PROVIDER: 'end-user-messaging',
      SMS_CONFIGURATION_SET: 'pipeline-sms',
    });
    expect(withAction(statementsOf('RunAutomationStepsRoleDefaultPolicy'), 'sms-voice:SendTextMessage')).toHaveLength(1);
  });

  it('lets the stream consumer, which starts, stops and moves runs, queue their steps, and nothing of the schedules', () => {
    const statements = statementsOf('RecordEventsRoleDefaultPolicy');
    const sending = withAction(statements, 'sqs:SendMessage').filter((statement) => JSON.stringify(statement.Resource).includes(queueId(names.queue)));
    expect(sending).toHaveLength(1);
    expect(resources[idOf('AWS::Lambda::Function', 'RecordEventsFunction')]!.Properties.Environment.Variables.AUTOMATION_QUEUE_URL).toEqual({ Ref: queueId(names.queue) });
    expect(statements.flatMap(({ Action }) => [Action].flat()).filter((action) => /^(scheduler|iam):/.test(action))).toEqual([]);
  });

  it('pages on a message in either dead letters, and on the runner failing in three 5-minute periods in a row', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    const onQueue = (name: string) => alarms.filter((alarm) => alarm.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(alarm.Dimensions).includes(queueId(name)));
    expect(onQueue(names.deadLetters)).toEqual([expect.objectContaining({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [expect.anything()] })]);
    expect(onQueue(names.scheduleDeadLetters)).toEqual([expect.objectContaining({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [expect.anything()] })]);
    const onRunner = alarms.filter((alarm) => alarm.MetricName === 'Errors' && JSON.stringify(alarm.Dimensions).includes(idOf('AWS::Lambda::Function', 'RunAutomationStepsFunction')));
    expect(onRunner).toEqual([expect.objectContaining({ EvaluationPeriods: 3, Period: 300, Threshold: 0, AlarmActions: [expect.anything()] })]);
  });
});

describe('the routes that start and stop runs', () => {
  const queued = routes.filter((route) => ['enrolAutomationLead', 'cancelAutomationRun'].includes(route.operationId));
  const apiApp = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline' } });
  const api = new ApiStack(apiApp, 'Api', { routes: queued, options: readOptions(apiApp.node) });

  it.each(queued.map((route) => [route.operationId, route] as const))('%s may queue steps on the step queue, and nothing of the schedules', (_, route) => {
    const nested = Template.fromStack(api.functionStacks.get(route.tag)!).toJSON().Resources as Record<string, Resource>;
    const fn = Object.entries(nested).find(([id, resource]) => id.startsWith(`${routeId(route)}Function`) && resource.Type === 'AWS::Lambda::Function')![1];
    expect(JSON.stringify(fn.Properties.Environment.Variables.AUTOMATION_QUEUE_URL)).toContain('/pipeline-automation-steps');
    const statements = Object.entries(nested)
      .filter(([id, resource]) => id.startsWith(`${routeId(route)}Role`) && resource.Type === 'AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
    const sending = withAction(statements, 'sqs:SendMessage');
    expect(sending).toHaveLength(1);
    expect(JSON.stringify(sending[0]!.Resource)).toContain(':pipeline-automation-steps');
    expect(statements.flatMap(({ Action }) => [Action].flat()).filter((action) => /^(scheduler|iam):/.test(action))).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CHANNELS, routes, WORKERS } from '../functions/resources';
import { ApiStack } from '../infra/cdk/api-stack';
import { bundledHandler } from '../infra/cdk/bundling';
import { EventsStack } from '../infra/cdk/events-stack';
import { readOptions } from '../infra/cdk/options';
import type { ChannelDefinition, WorkerDefinition } from '#shared/resource';
import { routeId, type Capability, type RouteDefinition } from '#shared/routes/route';

// The stacks read workers, authorizers and capabilities as data: what a resource declares is wired with no line of
// infra naming it. Each synth here is of a small stack (bundling left out).
type Resource = { Type: string; Properties: Record<string, any> };
const newApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline' } });
const eventsWith = (workers: readonly WorkerDefinition[], channels: readonly ChannelDefinition[] = CHANNELS) => {
  const app = newApp();
  return new EventsStack(app, 'Events', { options: readOptions(app.node), workers, channels });
};
const apiWith = (routeList: RouteDefinition[]) => {
  const app = newApp();
  return new ApiStack(app, 'Api', { routes: routeList, options: readOptions(app.node) });
};
const byPrefix = (resources: Record<string, Resource>, prefix: string) => Object.entries(resources).filter(([id]) => id.startsWith(prefix));
const ofTypeIn = (resources: Record<string, Resource>, type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

describe('the events stack, from the workers the resources declare', () => {
  const extra: WorkerDefinition[] = [
    { name: 'ReplayDeliveries', handler: 'webhooks/deliver', trigger: { kind: 'queue', queue: 'deliveries' }, dynamodb: ['GetItem'] },
    { name: 'CountReplies', handler: 'sms/inbound', trigger: { kind: 'topic', topic: 'inboundSms', failures: { name: 'CountRepliesFailures', meaning: 'Replies were not counted' } }, dynamodb: ['UpdateItem'] },
  ];
  const template = Template.fromStack(eventsWith([...WORKERS, ...extra])).toJSON();
  const resources = template.Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  const functionId = (name: string) => byPrefix(resources, `${name}Function`).find(([, resource]) => resource.Type === 'AWS::Lambda::Function')![0];

  it.each([...WORKERS, ...extra].map((worker) => [worker.name, worker] as const))('wires %s to its trigger', (_, worker) => {
    const id = functionId(worker.name);
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, mapping]) => mapping.Properties.FunctionName.Ref === id);
    const subscriptions = ofType('AWS::SNS::Subscription').filter(([, subscription]) => JSON.stringify(subscription.Properties.Endpoint).includes(id));
    if (worker.trigger.kind === 'stream') expect(mappings.map(([, mapping]) => mapping.Properties.StartingPosition)).toEqual(['TRIM_HORIZON']);
    if (worker.trigger.kind === 'queue') {
      const queue = worker.trigger.queue;
      const queueId = CHANNELS.find((channel) => channel.name === queue)!.id;
      expect(mappings.map(([, mapping]) => JSON.stringify(mapping.Properties.EventSourceArn))).toEqual([expect.stringContaining(`"${queueId}`)]);
    }
    if (worker.trigger.kind === 'topic') {
      expect(mappings).toEqual([]);
      expect(subscriptions).toHaveLength(1);
      // What it could not take waits in its own queue, which pages.
      const [failuresId] = byPrefix(resources, worker.trigger.failures.name).find(([, resource]) => resource.Type === 'AWS::SQS::Queue')!;
      expect(subscriptions[0]![1].Properties.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': [failuresId, 'Arn'] });
      const [[, alarm]] = byPrefix(resources, `${worker.trigger.failures.name}Waiting`) as [[string, Resource]];
      expect(alarm.Properties.AlarmDescription).toContain(worker.trigger.failures.meaning);
    }
    expect(resources[id]!.Properties.Handler).toBe(bundledHandler(worker.handler));
  });

  it('stops the synth naming a queue or topic it does not have', () => {
    expect(() => eventsWith([{ ...extra[0]!, trigger: { kind: 'queue', queue: 'nope' } }])).toThrow(/No queue nope in the events stack/);
    expect(() => eventsWith([{ ...extra[1]!, trigger: { kind: 'topic', topic: 'nope', failures: { name: 'NopeFailures', meaning: 'nothing' } } }])).toThrow(/No topic nope in the events stack/);
  });
});

describe('the events stack, from the channels the resources declare', () => {
  const reports: ChannelDefinition = {
    kind: 'queue',
    name: 'reports',
    id: 'Reports',
    queueName: (tableName) => `${tableName}-reports`,
    retentionDays: 3,
    visibilityTimeoutSeconds: 120,
    batchSize: 7,
    functionTimeoutSeconds: 20,
    deadLetters: { id: 'ReportDeadLetters', queueName: (tableName) => `${tableName}-report-dead-letters`, retentionDays: 14, maxReceiveCount: 4, alarm: { id: 'ReportDeadLettersWaiting', what: 'Reports were not written.' } },
    environment: { queueUrl: 'REPORT_QUEUE_URL', deadLettersUrl: 'REPORT_DLQ_URL' },
    local: { install: 'reports/queue#setReportQueue', what: 'report', logged: () => ({}) },
  };
  const weather: ChannelDefinition = {
    kind: 'topic',
    name: 'weather',
    id: 'WeatherFeed',
    displayName: 'Weather from the feed',
    publishedBy: 'events.amazonaws.com',
    output: { id: 'WeatherFeedTopic', description: 'Where the feed publishes' },
    local: { install: 'reports/feed#setWeatherHandler' },
  };
  const workers: WorkerDefinition[] = [
    { name: 'WriteReports', handler: 'webhooks/deliver', trigger: { kind: 'queue', queue: 'reports' }, dynamodb: ['PutItem'] },
    { name: 'ReadWeather', handler: 'sms/inbound', trigger: { kind: 'topic', topic: 'weather', failures: { name: 'WeatherFailures', meaning: 'Weather was not read' } }, dynamodb: ['UpdateItem'], sendsTo: ['reports'] },
  ];
  const template = Template.fromStack(eventsWith(workers, [reports, weather])).toJSON();
  const resources = template.Resources as Record<string, Resource>;
  const only = (prefix: string, type: string) => byPrefix(resources, prefix).filter(([, resource]) => resource.Type === type);
  const fnOf = (name: string) => only(`${name}Function`, 'AWS::Lambda::Function')[0]![1];

  it('makes a declared queue with its dead letters, its consumer’s batch and timeout, its senders’ settings and an alarm', () => {
    const [[deadId, dead]] = only('ReportDeadLetters', 'AWS::SQS::Queue') as [[string, Resource]];
    const [[queueId, queue]] = only('Reports', 'AWS::SQS::Queue') as [[string, Resource]];
    expect(dead.Properties).toMatchObject({ QueueName: 'pipeline-report-dead-letters', MessageRetentionPeriod: 14 * 86_400 });
    expect(queue.Properties).toMatchObject({ QueueName: 'pipeline-reports', MessageRetentionPeriod: 3 * 86_400, VisibilityTimeout: 120, RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadId, 'Arn'] }, maxReceiveCount: 4 } });
    const [[, mapping]] = ofTypeIn(resources, 'AWS::Lambda::EventSourceMapping') as [[string, Resource]];
    expect(mapping.Properties).toMatchObject({ BatchSize: 7, EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    expect(fnOf('WriteReports').Properties.Timeout).toBe(20);
    for (const name of ['WriteReports', 'ReadWeather']) expect(fnOf(name).Properties.Environment.Variables).toMatchObject({ REPORT_QUEUE_URL: { Ref: queueId }, REPORT_DLQ_URL: { Ref: deadId } });
    expect(only('ReportDeadLettersWaiting', 'AWS::CloudWatch::Alarm')[0]![1].Properties.AlarmDescription).toBe('Reports were not written.');
  });

  it('makes a declared topic its service alone publishes to, from this account, with its output', () => {
    const [[topicId, topic]] = only('WeatherFeed', 'AWS::SNS::Topic') as [[string, Resource]];
    expect(topic.Properties.DisplayName).toBe('Weather from the feed');
    const [[, policy]] = only('WeatherFeed', 'AWS::SNS::TopicPolicy') as [[string, Resource]];
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"Service":"events.amazonaws.com"');
    expect(template.Outputs.WeatherFeedTopic).toMatchObject({ Value: { Ref: topicId }, Description: 'Where the feed publishes' });
    expect(ofTypeIn(resources, 'AWS::SMSVOICE::ConfigurationSet')).toEqual([]);
  });

  it('refuses two channels of one name', () => {
    expect(() => eventsWith(workers, [reports, { ...weather, name: 'reports' }])).toThrow(/Two channels named reports/);
  });
});

describe('infra/, which builds every channel from the declarations', () => {
  const infraFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? infraFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
  const spelled = (channel: ChannelDefinition) => [channel.name, channel.id, ...(channel.kind === 'queue' ? [channel.deadLetters.id, channel.environment.queueUrl] : []), ...(channel.kind === 'topic' && 'post' in channel.local ? [channel.local.post] : [])];

  it.each(CHANNELS.map((channel) => [channel.name, channel] as const))('spells none of the names of %s', (_, channel) => {
    for (const file of infraFiles('infra')) {
      const source = readFileSync(file, 'utf8');
      for (const name of spelled(channel)) expect(source.includes(`'${name}'`) || source.includes(`\`${name}\``), `${file} spells ${name}`).toBe(false);
    }
  });
});

describe('a route’s capabilities and authorizer, as its resource declares them', () => {
  const reportsWeather: Capability = {
    name: 'weatherReader',
    reachesOutside: true,
    environment: ({ tableName }) => ({ WEATHER_FEED: `${tableName}-weather` }),
    statements: ({ partition, region, account }) => [{ actions: ['sqs:ReceiveMessage'], resources: [`arn:${partition}:sqs:${region}:${account}:weather-*`] }],
    wildcardReason: 'Every weather feed of the account.',
  };
  const listLeads = routes.find((route) => route.operationId === 'listLeads')!;
  const withCapability = (capability: Capability) => apiWith([{ ...listLeads, capabilities: [capability] }]);

  it('gives the route’s function the capability’s settings and statements, and acknowledges its wildcard with its reason', () => {
    const api = withCapability(reportsWeather);
    const nested = Template.fromStack(api.functionStacks.get(listLeads.tag)!).toJSON().Resources as Record<string, Resource>;
    const [, fn] = byPrefix(nested, `${routeId(listLeads)}Function`).find(([, resource]) => resource.Type === 'AWS::Lambda::Function')!;
    expect(fn.Properties.Environment.Variables.WEATHER_FEED).toBe('pipeline-weather');
    const statements = byPrefix(nested, `${routeId(listLeads)}Role`).flatMap(([, policy]) => policy.Properties.PolicyDocument?.Statement ?? []) as { Action: string | string[]; Resource: unknown }[];
    const weather = statements.filter((statement) => statement.Action === 'sqs:ReceiveMessage');
    expect(weather).toHaveLength(1);
    expect(JSON.stringify(weather[0]!.Resource)).toContain(':weather-*');
    const acknowledged = api.node.findAll().flatMap((construct) => construct.node.metadata.filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY).map((entry) => JSON.stringify(entry.data)));
    expect(acknowledged.some((data) => data.includes('weather-*') && data.includes('Every weather feed of the account.'))).toBe(true);
  });

  it('refuses a wildcard with no reason, and a route naming an authorizer no resource provides', () => {
    expect(() => withCapability({ ...reportsWeather, wildcardReason: undefined })).toThrow(/weatherReader grants .*weather-\* without a wildcardReason/);
    expect(() => apiWith([{ ...listLeads, auth: 'none', authorizer: 'nobodys' }])).toThrow(/listLeads names the authorizer nobodys, which no resource provides/);
  });
});

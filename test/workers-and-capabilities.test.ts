import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes, WORKERS } from '../functions/resources';
import { ApiStack } from '../infra/cdk/api-stack';
import { bundledHandler } from '../infra/cdk/bundling';
import { EventsStack } from '../infra/cdk/events-stack';
import { readOptions } from '../infra/cdk/options';
import type { WorkerDefinition } from '../shared/resource';
import { routeId, type Capability, type RouteDefinition } from '../shared/routes/route';

// The stacks read workers, authorizers and capabilities as data: what a resource declares is wired with no line of
// infra naming it. Each synth here is of a small stack (bundling left out).
type Resource = { Type: string; Properties: Record<string, any> };
const newApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline' } });
const eventsWith = (workers: readonly WorkerDefinition[]) => {
  const app = newApp();
  return new EventsStack(app, 'Events', { options: readOptions(app.node), workers });
};
const apiWith = (routeList: RouteDefinition[]) => {
  const app = newApp();
  return new ApiStack(app, 'Api', { routes: routeList, options: readOptions(app.node) });
};
const byPrefix = (resources: Record<string, Resource>, prefix: string) => Object.entries(resources).filter(([id]) => id.startsWith(prefix));

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
    if (worker.trigger.kind === 'queue') expect(mappings.map(([, mapping]) => JSON.stringify(mapping.Properties.EventSourceArn))).toEqual([expect.stringContaining('Deliveries')]);
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

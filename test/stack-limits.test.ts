import { createHash } from 'node:crypto';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import { ApiStack, STAGE_NAME } from '../infra/cdk/api-stack';
import { DASHBOARD_LIMITS } from '../infra/cdk/monitoring';
import { readOptions } from '../infra/cdk/options';
import type { RouteDefinition } from '#shared/routes/route';
import { capacitySection, committedSection } from '../infra/capacity/table';
import { dashboardBody, scaledRoutes, synthApiStack, TEMPLATE_LIMITS, templateLimitBreaches } from '../infra/capacity/scaled-stacks';

// CloudFormation refuses a stack of more than 500 resources. The parent keeps what every route shares, so it must not
// grow with the routes; each tag's stack holds its own routes. Today's routes, and three times as many (copies under
// other tags and paths, as another two hundred routes of today's mix would be), within every quota CloudFormation and
// CloudWatch document for what a template holds (TEMPLATE_LIMITS): a stack update past one of them fails. What one
// operation of all of them may create is below.
const limits = { parent: 150, routeStack: 400 };
const synthesized = [1, 3].map((times) => ({ times, routes: scaledRoutes(times), ...synthApiStack(scaledRoutes(times)) }));

describe.each(synthesized)('the API stack at $times× today’s routes', ({ times, routes: scaled, parent, roots, nested, parentResources, nestedResources }) => {
  it(`keeps the parent under ${limits.parent} resources and every route stack under ${limits.routeStack}`, () => {
    expect(parentResources).toBeLessThan(limits.parent);
    expect(nestedResources.length).toBe(new Set(scaled.map((route) => route.tag)).size);
    for (const count of nestedResources) expect(count).toBeLessThan(limits.routeStack);
  });

  it('makes every route’s function and methods, and every path’s 405 mock, in the route stacks', () => {
    const ofType = (type: string) => [parent, ...nested].flatMap((template) => Object.values(template.Resources as Record<string, { Type: string }>).filter((resource) => resource.Type === type));
    const inParent = (type: string) => Object.values(parent.Resources as Record<string, { Type: string }>).filter((resource) => resource.Type === type);
    expect(scaled).toHaveLength(times * routes.length);
    // One function per handler (a PATCH alias is its PUT's), plus the two authorizers in the parent (CDK's copy of the
    // console's files is in a nested stack of its own).
    expect(ofType('AWS::Lambda::Function')).toHaveLength(scaled.filter((route) => !route.aliasOf).length + 2);
    const paths = new Set(scaled.map((route) => route.path));
    // Each route's method, its CORS preflight when it answers one, each path's 405 mock, and the parent's own ANY /.
    expect(ofType('AWS::ApiGateway::Method')).toHaveLength(scaled.length + scaled.filter((route) => route.preflight).length + paths.size + 1);
    expect(inParent('AWS::ApiGateway::Method')).toHaveLength(1);
    expect(inParent('AWS::Lambda::Function')).toHaveLength(2);
    // The console's distribution and its bucket are the parent's, at any number of routes.
    expect(inParent('AWS::CloudFront::Distribution')).toHaveLength(1);
    expect(inParent('AWS::S3::Bucket')).toHaveLength(1);
  });

  it('keeps every template within CloudFormation’s and CloudWatch’s quotas', () => {
    for (const template of [parent, ...roots, ...nested]) expect(templateLimitBreaches(template)).toEqual([]);
  });

  it('graphs every function’s errors and throttles and every route’s p99 on the dashboards, one a top-level stack, no widget over 500 metrics', () => {
    const dashboards = [parent, ...roots].map((template) => Object.values(template.Resources as Record<string, { Type: string }>).filter((resource) => resource.Type === 'AWS::CloudWatch::Dashboard'));
    expect(dashboards.map((found) => found.length)).toEqual([parent, ...roots].map(() => 1));
    const widgets = dashboards.flat().flatMap((dashboard) => dashboardBody(dashboard).widgets);
    const metrics = widgets.flatMap((widget) => (widget.properties.metrics ?? []) as unknown[][]);
    const named = (namespace: string, metricName: string) => metrics.filter((metric) => metric[0] === namespace && metric[1] === metricName);
    const functions = scaled.filter((route) => !route.aliasOf).length + 2;
    expect(named('AWS/Lambda', 'Errors')).toHaveLength(functions);
    expect(named('AWS/Lambda', 'Throttles')).toHaveLength(functions);
    const operations = named('SalesPipeline', 'Latency').map((metric) => metric[metric.indexOf('operation') + 1]);
    expect(new Set(operations)).toEqual(new Set(scaled.filter((route) => !route.aliasOf).map((route) => route.operationId)));
    for (const widget of widgets) expect((widget.properties.metrics ?? []).length).toBeLessThanOrEqual(TEMPLATE_LIMITS.widgetMetrics);
  });
});

// A first deploy of a top-level stack creates it and its nested stacks in one operation, of at most 2 500 resources:
// the API stack takes the route groups its operation holds, and stacks of routes after it the rest, each its own operation.
describe.each(synthesized)('the first deploy at $times× today’s routes', ({ times, operations }) => {
  it(`creates at most ${TEMPLATE_LIMITS.operationResources} resources in each top-level stack’s operation, nested stacks summed`, () => {
    for (const operation of operations) expect(operation.resources, operation.stack).toBeLessThanOrEqual(TEMPLATE_LIMITS.operationResources);
    // Today's routes are all in the API stack's own operation, as before stacks of routes existed; three times as many are not.
    expect(operations.length === 1).toBe(times === 1);
  });
});

describe('the stacks of routes after the API stack', () => {
  const { api, roots, operations } = synthesized.find(({ times }) => times === 3)!;

  it('are each deployed after the API stack and the one before, in order', () => {
    api.routeStacks.forEach((stack, index) => {
      const after = stack.dependencies.map((dependency) => dependency.stackName);
      expect(after, stack.stackName).toContain(api.stackName);
      if (index) expect(after, stack.stackName).toContain(api.routeStacks[index - 1]!.stackName);
    });
    expect(operations.map((operation) => operation.stack)).toEqual([api.stackName, ...api.routeStacks.map((stack) => stack.stackName)]);
  });

  it('release the API’s methods to the stage once their route stacks exist: a new deployment, made again when any method changes', () => {
    /** The SDK call a release makes, as CloudFormation hands it to the provider (references left as REF). */
    const callOf = (property: string | { 'Fn::Join': [string, unknown[]] }) =>
      JSON.parse(typeof property === 'string' ? property : property['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'REF')).join(property['Fn::Join'][0]));
    api.routeStacks.forEach((stack, index) => {
      const resources = roots[index]!.Resources as Record<string, { Type: string; DependsOn?: string[]; Properties: Record<string, any> }>;
      const releases = Object.values(resources).filter((resource) => resource.Type === 'Custom::AWS');
      expect(releases).toHaveLength(1);
      const nestedIds = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::CloudFormation::Stack').map(([id]) => id);
      expect(releases[0]!.DependsOn).toEqual(expect.arrayContaining(nestedIds));
      // Its physical id is the hash of every method of the API, as plain data: a changed method in any stack makes a new
      // one, so the call is made again, and the API stack's own deployment never leaves the stage without this stack's.
      expect(stack.methods.length).toBeGreaterThan(0);
      expect(api.methods).toEqual(expect.arrayContaining(stack.methods));
      const hash = createHash('sha256').update(JSON.stringify(api.methods)).digest('hex').slice(0, 16);
      expect(callOf(releases[0]!.Properties.Create)).toEqual({
        service: 'APIGateway',
        action: 'createDeployment',
        parameters: { restApiId: 'REF', stageName: STAGE_NAME, description: `The routes of ${stack.stackName}` },
        physicalResourceId: { id: `${stack.stackName}-${hash}` },
      });
      expect(releases[0]!.Properties.Update).toEqual(releases[0]!.Properties.Create);
    });
  });
});

describe('what docs/capacity.md says the stacks hold', () => {
  it('is the section npm run generate writes from the stacks synthesized now, at today’s routes and three times as many', () => {
    const [today, tripled] = [1, 3].map((times) => synthesized.find((stacks) => stacks.times === times)!);
    expect(committedSection()).toBe(capacitySection(today!, tripled!));
  });
});

describe('the dashboard of a stack of more functions than a row graphs (sam local’s template, which holds them all)', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], samLocal: 'true' } });
  const handlers = routes.filter((route) => !route.aliasOf).slice(0, DASHBOARD_LIMITS.functionsPerWidget + 10);
  const api = new ApiStack(app, 'Api', { routes: handlers, options: readOptions(app.node) });
  const template = Template.fromStack(api);
  const functions = Object.keys(template.findResources('AWS::Lambda::Function')).length;
  const dashboard = Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0]!;
  const widgets = dashboardBody(dashboard).widgets.filter((widget) => widget.properties.title?.startsWith('API stack'));

  it('splits them over rows of at most functionsPerWidget, each function in one row', () => {
    const errors = (title: string) => (widgets.find((widget) => widget.properties.title === title)?.properties.metrics ?? []).filter((metric) => (metric as string[])[1] === 'Errors');
    const rows = [errors('API stack (1 of 2): Lambda errors and throttles'), errors('API stack (2 of 2): Lambda errors and throttles')];
    expect(rows.map((row) => row.length)).toEqual([DASHBOARD_LIMITS.functionsPerWidget, functions - DASHBOARD_LIMITS.functionsPerWidget]);
    const p99s = widgets.filter((widget) => widget.properties.title?.endsWith(': p99 (ms, handler time)')).map((widget) => widget.properties.metrics!.length);
    expect(p99s).toEqual([DASHBOARD_LIMITS.functionsPerWidget, handlers.length - DASHBOARD_LIMITS.functionsPerWidget]);
  });
});

describe('the quota checks of the templates', () => {
  const many = <T>(count: number, make: (index: number) => T) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`Item${index}`, make(index)]));
  const topic = { Type: 'AWS::SNS::Topic' };
  const alarm = (metrics: number, actions: number, period: number, evaluationPeriods: number) => ({
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      EvaluationPeriods: evaluationPeriods,
      AlarmActions: Array.from({ length: actions }, () => 'arn'),
      Metrics: Array.from({ length: metrics }, (_, index) => ({ Id: `m${index}`, MetricStat: { Period: period } })),
    },
  });
  // Its body joined around a reference, as CDK writes one naming an alarm or the region.
  const dashboard = (widgets: number, metrics: number) => {
    const body = JSON.stringify({
      widgets: Array.from({ length: widgets }, (_, index) => ({
        type: 'metric',
        properties: { title: index ? `w${index}` : 'REFERENCE', metrics: index ? [] : Array.from({ length: metrics }, () => ['AWS/Lambda', 'Errors', 'FunctionName', 'fn']) },
      })),
    });
    const [before, after] = body.split('REFERENCE');
    return { Type: 'AWS::CloudWatch::Dashboard', Properties: { DashboardBody: { 'Fn::Join': ['', [before, { Ref: 'AWS::Region' }, after]] } } };
  };
  const at = (n: number) => ({
    Description: 'd'.repeat(TEMPLATE_LIMITS.descriptionBytes + n),
    Parameters: many(TEMPLATE_LIMITS.parameters + n, () => ({ Type: 'String' })),
    Outputs: many(TEMPLATE_LIMITS.outputs + n, (index) => ({ Value: index < TEMPLATE_LIMITS.dynamicReferences + n ? '{{resolve:ssm:name}}' : 'value' })),
    Mappings: many(TEMPLATE_LIMITS.mappings + n, () => ({ key: { name: 'value' } })),
    Resources: {
      ...many(TEMPLATE_LIMITS.resources - 2 + n, () => topic),
      ['A'.repeat(TEMPLATE_LIMITS.nameCharacters + n)]: alarm(TEMPLATE_LIMITS.alarmMetrics + n, TEMPLATE_LIMITS.alarmActions + n, 3600, 24 + n),
      Dashboard: dashboard(TEMPLATE_LIMITS.dashboardWidgets + n, TEMPLATE_LIMITS.widgetMetrics + n),
    },
  });

  it('finds nothing in a template at each quota', () => {
    expect(templateLimitBreaches(at(0))).toEqual([]);
  });

  it('names each quota a template goes past', () => {
    const alarmId = 'A'.repeat(TEMPLATE_LIMITS.nameCharacters + 1);
    expect(templateLimitBreaches(at(1))).toEqual([
      'resources: 501 > 500',
      'outputs: 201 > 200',
      'parameters: 201 > 200',
      'mappings: 201 > 200',
      'dynamic references: 61 > 60',
      'description bytes: 1025 > 1024',
      `characters of a name in Resources of ${alarmId}: 256 > 255`,
      `metrics of an alarm of ${alarmId}: 11 > 10`,
      `AlarmActions of an alarm of ${alarmId}: 6 > 5`,
      `seconds an alarm evaluates of ${alarmId}: 90000 > 86400`,
      'widgets of a dashboard of Dashboard: 501 > 500',
      'metrics of a widget of "resolved": 501 > 500',
    ]);
  });

  it('counts a template’s bytes as cdk synth writes it', () => {
    const sized = (bytes: number) => {
      const built = { Resources: { Topic: { Type: 'AWS::SNS::Topic', Metadata: { padding: '' } } } };
      built.Resources.Topic.Metadata.padding = 'x'.repeat(bytes - Buffer.byteLength(JSON.stringify(built, undefined, 1)));
      return built;
    };
    expect(templateLimitBreaches(sized(TEMPLATE_LIMITS.templateBytes))).toEqual([]);
    expect(templateLimitBreaches(sized(TEMPLATE_LIMITS.templateBytes + 1))).toEqual([`template bytes: ${TEMPLATE_LIMITS.templateBytes + 1} > ${TEMPLATE_LIMITS.templateBytes}`]);
  });
});

describe('the stage’s deployment, made in the parent after the route stacks', () => {
  const deploymentOf = (routeList: RouteDefinition[]) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } });
    const api = new ApiStack(app, 'Api', { routes: routeList, options: readOptions(app.node) });
    const resources = Template.fromStack(api).toJSON().Resources as Record<string, { Type: string; DependsOn?: string[] }>;
    const deployments = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::ApiGateway::Deployment');
    expect(deployments).toHaveLength(1);
    const [id, deployment] = deployments[0]!;
    const nested = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::CloudFormation::Stack').map(([nestedId]) => nestedId);
    return { id, dependsOn: deployment.DependsOn ?? [], nested };
  };
  const listLeads = routes.find((route) => route.operationId === 'listLeads')!;
  const getLead = routes.find((route) => route.operationId === 'getLead')!;
  const today = deploymentOf([listLeads, getLead]);

  it('waits for every route stack, whose methods it deploys', () => {
    expect(today.nested.length).toBeGreaterThan(0);
    expect(today.dependsOn).toEqual(expect.arrayContaining(today.nested));
  });

  it('is a new deployment when a method changes, and the same one when nothing does', () => {
    expect(deploymentOf([listLeads, getLead]).id).toBe(today.id);
    expect(deploymentOf([listLeads]).id).not.toBe(today.id);
    expect(deploymentOf([listLeads, { ...getLead, auth: 'none' }]).id).not.toBe(today.id);
    expect(deploymentOf([listLeads, { ...getLead, preflight: true }]).id).not.toBe(today.id);
  });
});

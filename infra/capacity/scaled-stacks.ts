import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { routes as todaysRoutes } from '../../functions/resources';
import { ApiStack } from '../../infra/cdk/api-stack';
import { readOptions } from '../../infra/cdk/options';
import type { RouteDefinition } from '#shared/routes/route';

/**
 * The route table `times` over: today's routes, and copies of them under other tags, paths and operationIds
 * (`/v1/leads/{leadId}` → `/v1/leads-2/{leadId}` tagged `Leads 2`), as another hundred routes of today's mix would be.
 */
export function scaledRoutes(times: number, routes: readonly RouteDefinition[] = todaysRoutes): RouteDefinition[] {
  const copy = (route: RouteDefinition, n: number): RouteDefinition => {
    // The first segment after /v1 (or the first of all), so the copies share /v1 as new resources would.
    const path = route.path.replace(/^(\/v1)?\/([^/]+)/, (_, v1: string | undefined, first: string) => `${v1 ?? ''}/${first}-${n}`);
    return { ...route, tag: `${route.tag} ${n}`, path, operationId: `${route.operationId}${n}`, ...(route.aliasOf ? { aliasOf: `${route.aliasOf}${n}` } : {}) };
  };
  return [...routes, ...Array.from({ length: times - 1 }, (_, index) => routes.map((route) => copy(route, index + 2))).flat()];
}

/**
 * The API stack's templates for `routes`, synthesized offline as `npm run synth` does (bundling left out), and how long
 * that took: the parent, its stacks of routes after it (`roots`), every tag's nested stack, and what each top-level
 * stack's operation creates on a first deploy (its own resources and its nested stacks').
 */
export function synthApiStack(routes: RouteDefinition[]) {
  const started = performance.now();
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } });
  // As deployed: with the console's files and the distribution in front of the API.
  const api = new ApiStack(app, 'SalesPipelineApi', { routes, options: readOptions(app.node), console: true });
  const parent = Template.fromStack(api).toJSON();
  const roots = api.routeStacks.map((stack) => Template.fromStack(stack).toJSON());
  const nestedStacks = [...api.functionStacks.values()];
  const nested = nestedStacks.map((stack) => Template.fromStack(stack).toJSON());
  const resourceCount = (template: Record<string, any>) => Object.keys(template.Resources as object).length;
  const parentResources = resourceCount(parent);
  const nestedResources = nested.map(resourceCount);
  // A first deploy of each top-level stack creates every resource of it and of its nested stacks in one operation.
  const operations = [api, ...api.routeStacks].map((root, index) => ({
    stack: root.stackName,
    nestedStacks: nestedStacks.filter((stack) => stack.nestedStackParent === root).length,
    resources: resourceCount(index ? roots[index - 1]! : parent) + nestedStacks.reduce((sum, stack, i) => sum + (stack.nestedStackParent === root ? nestedResources[i]! : 0), 0),
  }));
  const createdResources = operations.reduce((sum, operation) => sum + operation.resources, 0);
  return { api, parent, roots, nested, parentResources, nestedResources, operations, createdResources, ms: performance.now() - started };
}

/**
 * What CloudFormation and CloudWatch refuse in a template, as their quotas are documented: CloudFormation's "Understand
 * CloudFormation quotas" (a template of at most 500 resources, 200 outputs, 200 parameters, 200 mappings, 60 dynamic
 * references, a description of 1 024 bytes, names of 255 characters, and 1 MB for a template read from S3, as `cdk
 * deploy` uploads each of ours); CloudWatch's "service quotas" and dashboard body structure (an alarm on metric math
 * reads at most 10 metrics and has at most 5 actions per state, over at most a day of evaluation; a dashboard holds at
 * most 500 widgets, each graphing at most 500 metrics).
 */
export const TEMPLATE_LIMITS = {
  resources: 500,
  outputs: 200,
  parameters: 200,
  mappings: 200,
  dynamicReferences: 60,
  descriptionBytes: 1024,
  nameCharacters: 255,
  templateBytes: 1024 * 1024,
  alarmMetrics: 10,
  alarmActions: 5,
  alarmEvaluationSeconds: 24 * 60 * 60,
  dashboardWidgets: 500,
  widgetMetrics: 500,
  /** Resources one operation of a stack and its nested stacks creates, updates or deletes ("Nested stacks" in the quotas). */
  operationResources: 2500,
} as const;

type TemplateJson = Record<string, any>;

/** A dashboard's body as CloudWatch gets it: CDK joins strings and references, each of which resolves inside a JSON string. */
export function dashboardBody(dashboard: TemplateJson): { widgets: { type: string; properties: { title?: string; metrics?: unknown[] } }[] } {
  const body = dashboard.Properties.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
  const text = typeof body === 'string' ? body : body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'resolved')).join(body['Fn::Join'][0]);
  return JSON.parse(text);
}

/** Each of `template`'s breaches of TEMPLATE_LIMITS, named (none for a template CloudFormation and CloudWatch take). */
export function templateLimitBreaches(template: TemplateJson): string[] {
  const breaches: string[] = [];
  const over = (quota: string, count: number, limit: number, of?: string) => {
    if (count > limit) breaches.push(`${quota}${of === undefined ? '' : ` of ${of}`}: ${count} > ${limit}`);
  };
  const section = (name: string) => Object.entries((template[name] ?? {}) as Record<string, TemplateJson>);
  over('resources', section('Resources').length, TEMPLATE_LIMITS.resources);
  over('outputs', section('Outputs').length, TEMPLATE_LIMITS.outputs);
  over('parameters', section('Parameters').length, TEMPLATE_LIMITS.parameters);
  over('mappings', section('Mappings').length, TEMPLATE_LIMITS.mappings);
  // As cdk synth writes the template (one space of indentation): the bytes CloudFormation reads from S3.
  const text = JSON.stringify(template, undefined, 1);
  over('template bytes', Buffer.byteLength(text), TEMPLATE_LIMITS.templateBytes);
  over('dynamic references', text.split('{{resolve:').length - 1, TEMPLATE_LIMITS.dynamicReferences);
  over('description bytes', Buffer.byteLength(template.Description ?? ''), TEMPLATE_LIMITS.descriptionBytes);
  for (const name of ['Resources', 'Outputs', 'Parameters', 'Mappings']) for (const [id] of section(name)) over(`characters of a name in ${name}`, id.length, TEMPLATE_LIMITS.nameCharacters, id);
  for (const [id, resource] of section('Resources')) {
    const properties = (resource.Properties ?? {}) as TemplateJson;
    if (resource.Type === 'AWS::CloudWatch::Alarm') {
      over('metrics of an alarm', (properties.Metrics ?? []).length, TEMPLATE_LIMITS.alarmMetrics, id);
      for (const actions of ['AlarmActions', 'OKActions', 'InsufficientDataActions']) over(`${actions} of an alarm`, (properties[actions] ?? []).length, TEMPLATE_LIMITS.alarmActions, id);
      const period = properties.Period ?? Math.max(0, ...(properties.Metrics ?? []).map((metric: TemplateJson) => metric.Period ?? metric.MetricStat?.Period ?? 0));
      over('seconds an alarm evaluates', period * properties.EvaluationPeriods, TEMPLATE_LIMITS.alarmEvaluationSeconds, id);
    }
    if (resource.Type === 'AWS::CloudWatch::Dashboard') {
      const { widgets } = dashboardBody(resource);
      over('widgets of a dashboard', widgets.length, TEMPLATE_LIMITS.dashboardWidgets, id);
      for (const widget of widgets) over('metrics of a widget', (widget.properties.metrics ?? []).length, TEMPLATE_LIMITS.widgetMetrics, `"${widget.properties.title}"`);
    }
  }
  return breaches;
}

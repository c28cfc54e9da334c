import { App } from 'aws-cdk-lib';
import fc from 'fast-check';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { METRIC } from '#shared/observability';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { ACCESS_LOG_FIELDS } from '../infra/cdk/api-stack';
import { ALARM_THRESHOLDS, DYNAMO_OPERATIONS } from '../infra/cdk/monitoring';
import { DEFAULT_CONCURRENCY, readOptions } from '../infra/cdk/options';
import { readFileSync } from 'node:fs';
import { greaterThanPattern, INBOUND_RETRY_AFTER_SECONDS, IPV4_URL_RULES } from '../infra/cdk/firewall';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER, VIEWER_ADDRESS_STAGE_VARIABLE } from '#shared/http/caller-address';
import { routes } from '../functions/resources';
import { getOAuthAuthorize } from '../functions/oauth/routes';
import { DYNAMO_ACTIONS, routeId } from '#shared/routes/route';

type Resource = { Properties: Record<string, any> };

/** The API stack's templates (it and its nested function stacks), synthesized offline with `context`. */
function synth(context: Record<string, unknown> = {}) {
  const { api, events } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', ...context } }));
  const parent = Template.fromStack(api);
  const nested = new Map([...api.functionStacks].map(([tag, stack]) => [tag, Template.fromStack(stack)]));
  const templates = [parent, ...nested.values()];
  const resources = (type: string) => Object.assign({}, ...templates.map((template) => template.findResources(type))) as Record<string, Resource>;
  return { parent, templates, resources, nested, events: Template.fromStack(events) };
}

const deployed = synth({ alarmEmail: 'oncall@example.com' });
const domainContext = { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc', hostedZoneId: 'Z123', hostedZoneName: 'example.com' };
/**
 * Every option the context takes, set away from its default in one synth: each test below reads its own option from
 * it (a synth takes a second or two, and no option reads another's).
 */
const tuned = synth({
  logLevel: 'DEBUG',
  debugSampleRate: 0.5,
  traceSampleRate: 0.01,
  authorizerConcurrency: 250,
  architecture: 'x86_64',
  ...domainContext,
  wafRatePerIp: 500,
  wafInboundRatePerIp: 120,
  stageRateLimit: 300,
  stageBurstLimit: 600,
  authorizerCacheTtl: 60,
  tableName: 'sales-pipeline-staging',
});
/** One function per route, a PATCH alias sharing its PUT's, and the two authorizers. */
const functionCount = routes.filter((route) => !route.aliasOf).length + 2;

describe('logs, metrics and traces', () => {
  it('runs every function with JSON logs at the configured level and Powertools settings', () => {
    for (const fn of Object.values(deployed.resources('AWS::Lambda::Function'))) {
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'WARN' });
      expect(fn.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'sales-pipeline',
        POWERTOOLS_METRICS_NAMESPACE: 'SalesPipeline',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        POWERTOOLS_LOGGER_SAMPLE_RATE: '0.01',
      });
    }
    for (const fn of Object.values(tuned.resources('AWS::Lambda::Function'))) {
      expect(fn.Properties.LoggingConfig.ApplicationLogLevel).toBe('DEBUG');
      expect(fn.Properties.Environment.Variables.POWERTOOLS_LOGGER_SAMPLE_RATE).toBe('0.5');
    }
  });

  it('traces a fixed 5 % of the stage’s requests, with no reservoir, and takes another share from the context', () => {
    const stage = Object.entries(deployed.parent.findResources('AWS::ApiGateway::Stage'))[0]!;
    expect((stage[1] as Resource).Properties.TracingEnabled).toBe(true);
    const rules = Object.values(deployed.parent.findResources('AWS::XRay::SamplingRule')) as Resource[];
    expect(rules).toHaveLength(1);
    const rule = rules[0]!.Properties.SamplingRule;
    expect(rule).toMatchObject({ FixedRate: 0.05, ReservoirSize: 0, Priority: 100, ServiceType: 'AWS::ApiGateway::Stage', Version: 1 });
    expect(rule.RuleName.length).toBeLessThanOrEqual(32);
    // The rule names this API's stage, so no other service in the account is sampled by it.
    const restApiId = (stage[1] as Resource).Properties.RestApiId.Ref;
    expect(JSON.stringify(rule.ResourceARN)).toContain(restApiId);
    expect(JSON.stringify(rule.ResourceARN)).toContain('/stages/prod');
    expect((Object.values(tuned.parent.findResources('AWS::XRay::SamplingRule'))[0] as Resource).Properties.SamplingRule.FixedRate).toBe(0.01);
  });

  it('writes access logs with the fields that find a tenant’s request', () => {
    const stage = Object.values(deployed.parent.findResources('AWS::ApiGateway::Stage'))[0] as Resource;
    const format = JSON.parse(stage.Properties.AccessLogSetting.Format);
    for (const field of ['requestId', 'organizationId', 'keyId', 'route', 'status', 'latencyMs', 'integrationLatencyMs', 'error']) expect(format).toHaveProperty(field);
    expect(format.organizationId).toBe('$context.authorizer.organizationId');
    expect(format.keyId).toBe('$context.authorizer.keyId');
    expect(Object.keys(format)).toEqual(Object.keys(ACCESS_LOG_FIELDS));
  });
});

type Alarm = Resource & { Properties: { AlarmActions?: unknown[]; OKActions?: unknown[]; InsufficientDataActions?: unknown[] } };
/** Every alarm of the API stack and its nested stacks, with the template it is in. */
const alarmsIn = (deployment: ReturnType<typeof synth>) =>
  deployment.templates.flatMap((template) => Object.entries(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Alarm>).map(([id, alarm]) => ({ id, alarm, template })));
/** A labelled metric is written as a one-metric MetricStat. */
const metricOf = (alarm: Resource) => alarm.Properties.Metrics?.[0]?.MetricStat?.Metric ?? alarm.Properties;

describe('what pages', () => {
  const alarms = alarmsIn(deployed);
  const topic = Object.keys(deployed.parent.findResources('AWS::SNS::Topic'))[0]!;
  const paging = alarms.filter(({ alarm }) => alarm.Properties.AlarmActions?.length);

  it('pages on five alarms only: the API’s 5xx rate and p99, DynamoDB throttles and system errors, and STS refusing tenant sessions', () => {
    expect(paging.map(({ id }) => id.replace(/^Monitoring|[0-9A-F]{8}$/g, '')).sort()).toEqual(['Api5xxRate', 'ApiLatencyP99', 'DynamoDbSystemErrors', 'DynamoDbThrottles', 'TenantSessionsRefused']);
    for (const { alarm } of paging) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topic }]);
    }
  });

  it('pages on a tenant session STS refused (throttled): the functions count each, a request then answers 503', () => {
    const { alarm } = paging.find(({ id }) => id.startsWith('MonitoringTenantSessionsRefused'))!;
    expect(alarm.Properties).toMatchObject({ Namespace: 'SalesPipeline', MetricName: METRIC.tenantSessionsRefused, Statistic: 'Sum', Period: 60, Threshold: ALARM_THRESHOLDS.tenantSessionsRefused, Dimensions: [{ Name: 'service', Value: 'sales-pipeline' }] });
    expect(ALARM_THRESHOLDS.tenantSessionsRefused).toBe(1);
  });

  it('pages when 3 of the last 5 one-minute periods breach, never on one period', () => {
    const { datapoints, periods } = ALARM_THRESHOLDS.page;
    expect([datapoints, periods]).toEqual([3, 5]);
    for (const { id, alarm } of paging) {
      expect(alarm.Properties, id).toMatchObject({ EvaluationPeriods: periods, DatapointsToAlarm: datapoints, TreatMissingData: 'notBreaching', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      // A one-metric alarm states its period itself; a metric-math alarm, each metric's.
      const stats = ((alarm.Properties.Metrics as { MetricStat?: { Period: number } }[] | undefined) ?? [{ MetricStat: { Period: alarm.Properties.Period } }]).filter((metric) => metric.MetricStat);
      expect(stats.map((metric) => metric.MetricStat!.Period), id).toEqual(stats.map(() => 60));
    }
  });

  it('judges the API’s 5xx rate and p99 only in a minute with at least 20 answers', () => {
    const expressionOf = (name: string) => {
      const { alarm } = paging.find(({ id }) => id.startsWith(`Monitoring${name}`))!;
      const metrics = alarm.Properties.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Namespace: string }; Stat: string } }[];
      const used = Object.fromEntries(metrics.filter((metric) => metric.MetricStat).map((metric) => [metric.Id, `${metric.MetricStat!.Metric.Namespace}/${metric.MetricStat!.Metric.MetricName} ${metric.MetricStat!.Stat}`]));
      return { expression: metrics.find((metric) => metric.Expression)!.Expression, used, threshold: alarm.Properties.Threshold };
    };
    expect(ALARM_THRESHOLDS.minRequests).toBe(20);
    expect(expressionOf('Api5xxRate')).toEqual({
      expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
      used: { errors: 'AWS/ApiGateway/5XXError Sum', requests: 'AWS/ApiGateway/Count Sum' },
      threshold: ALARM_THRESHOLDS.api5xxPercent,
    });
    expect(expressionOf('ApiLatencyP99')).toEqual({
      expression: 'IF(requests >= 20, latency, 0)',
      used: { latency: 'AWS/ApiGateway/Latency p99', requests: 'AWS/ApiGateway/Count Sum' },
      threshold: ALARM_THRESHOLDS.apiP99Ms,
    });
  });

  it('pages on DynamoDB system errors of every operation a granted action is called in, BatchWriteItem and DeleteItem included', () => {
    const { alarm } = paging.find(({ id }) => id.startsWith('MonitoringDynamoDbSystemErrors'))!;
    const watched = (alarm.Properties.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } } }[])
      .filter((metric) => metric.MetricStat?.Metric.MetricName === 'SystemErrors')
      .map((metric) => metric.MetricStat!.Metric.Dimensions.find((dimension) => dimension.Name === 'Operation')!.Value);
    expect(new Set(watched)).toEqual(new Set(DYNAMO_ACTIONS.flatMap((action) => DYNAMO_OPERATIONS[action])));
    expect(watched).toEqual(expect.arrayContaining(['BatchWriteItem', 'DeleteItem', 'TransactWriteItems', 'GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem']));
    // Every action any function is granted is watched in its own operation (a condition check only runs in a transaction).
    const granted = new Set(Object.values(deployed.resources('AWS::IAM::Policy')).flatMap((policy) => (policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((statement) => [statement.Action].flat())).filter((action) => action.startsWith('dynamodb:')).map((action) => action.slice('dynamodb:'.length)));
    expect([...granted].filter((action) => action !== 'ConditionCheckItem' && !watched.includes(action))).toEqual([]);
  });

  it('emails the configured address when a paging alarm fires and when it recovers', () => {
    deployed.parent.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
    expect(Object.keys(tuned.parent.findResources('AWS::SNS::Subscription'))).toHaveLength(0);
  });

  it('refuses a synth that names no one to notify, unless told `none`; the sam local template, never deployed, needs none', () => {
    const bare = { 'aws:cdk:bundling-stacks': [] };
    expect(() => buildApp(new App({ context: bare }))).toThrow(/Context alarmEmail is required.*-c alarmEmail=none/);
    expect(() => buildApp(new App({ context: { ...bare, alarmEmail: '' } }))).toThrow(/alarmEmail is required/);
    expect(() => buildApp(new App({ context: { ...bare, alarmEmail: 'oncall' } }))).toThrow(/"oncall", which is not an email address/);
    // `none` is the explicit choice the test synths and `npm run synth` make: alarms, and no subscription.
    expect(Object.keys(tuned.parent.findResources('AWS::CloudWatch::Alarm')).length).toBeGreaterThan(0);
    expect(Object.keys(tuned.parent.findResources('AWS::SNS::Subscription'))).toEqual([]);
    expect(JSON.parse(readFileSync('package.json', 'utf8')).scripts.synth).toMatch(/ -c alarmEmail=none\b/);
    expect(readOptions(new App({ context: { ...bare, samLocal: 'true' } }).node).alarmEmails).toEqual([]);
  });

  it('has a dashboard of the same signals, its alarm widget the paging alarms', () => {
    const dashboard = Object.values(deployed.parent.findResources('AWS::CloudWatch::Dashboard'))[0] as Resource;
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const signal of ['5XXError', 'Latency', 'IntegrationLatency', 'Errors', 'Throttles', 'ReadThrottleEvents', 'SystemErrors']) expect(body).toContain(signal);
    for (const { id } of paging) expect(body).toContain(id);
    expect(body).not.toContain('CreateLeadErrors');
  });
});

describe('what rolls a canary back', () => {
  const alarms = alarmsIn(deployed);
  const rollback = alarms.filter(({ alarm }) => !alarm.Properties.AlarmActions?.length);
  const groups = deployed.templates.flatMap((template) => Object.entries(template.findResources('AWS::CodeDeploy::DeploymentGroup') as Record<string, Resource>).map(([id, group]) => ({ id, group, template })));

  it('alarms on each route’s p99 and each function’s failures and throttles, both authorizers included, notifying no one', () => {
    // A PATCH alias runs its PUT's function, which measures it under the PUT's operation.
    for (const route of routes.filter((candidate) => !candidate.aliasOf)) {
      const p99 = rollback.find(({ alarm }) => alarm.Properties.MetricName === 'Latency' && alarm.Properties.Dimensions?.some((d: any) => d.Name === 'operation' && d.Value === route.operationId));
      expect(p99?.alarm.Properties, route.operationId).toMatchObject({ Namespace: 'SalesPipeline', ExtendedStatistic: 'p99', Threshold: ALARM_THRESHOLDS.routeP99Ms, Period: 60, EvaluationPeriods: 2 });
    }
    const failures = rollback.filter(({ alarm }) => alarm.Properties.Metrics?.some((metric: any) => metric.Expression));
    const throttles = rollback.filter(({ alarm }) => metricOf(alarm).Namespace === 'AWS/Lambda' && metricOf(alarm).MetricName === 'Throttles');
    expect(failures).toHaveLength(functionCount);
    expect(throttles).toHaveLength(functionCount);
    for (const { id, alarm } of throttles) expect(alarm.Properties, id).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, Metrics: [{ MetricStat: { Period: 60 } }] });
    const { failurePercent, datapoints, periods } = ALARM_THRESHOLDS.rollback;
    expect([failurePercent, datapoints, periods]).toEqual([10, 2, 3]);
    for (const { id, alarm } of failures) {
      expect(alarm.Properties, id).toMatchObject({ Threshold: failurePercent, EvaluationPeriods: periods, DatapointsToAlarm: datapoints, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
      for (const metric of alarm.Properties.Metrics.filter((candidate: any) => candidate.MetricStat)) expect(metric.MetricStat.Period, id).toBe(60);
    }
    for (const { id, alarm } of rollback) {
      expect([alarm.Properties.AlarmActions, alarm.Properties.OKActions, alarm.Properties.InsufficientDataActions], id).toEqual([undefined, undefined, undefined]);
    }
    expect(rollback).toHaveLength(alarms.length - 5);
  });

  /** A failures alarm's expression, and each metric it reads as `Namespace/MetricName` with its dimensions. */
  const failuresOf = (template: Template, alarmId: string) => {
    const metrics = (template.toJSON().Resources[alarmId].Properties.Metrics ?? []) as { Id: string; Expression?: string; MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] }; Stat: string } }[];
    const used = Object.fromEntries(
      metrics
        .filter((metric) => metric.MetricStat)
        .map((metric) => [metric.Id, { metric: `${metric.MetricStat!.Metric.Namespace}/${metric.MetricStat!.Metric.MetricName} ${metric.MetricStat!.Stat}`, dimensions: Object.fromEntries(metric.MetricStat!.Metric.Dimensions.map(({ Name, Value }) => [Name, Value])) }]),
    );
    return { expression: metrics.find((metric) => metric.Expression)?.Expression, used };
  };

  it('rolls a route back on its new version’s 5xx answers, which the function counts (its invocation succeeds), and its crashes, as a share of that version’s invocations', () => {
    const route = routes.find((candidate) => candidate.operationId === 'listLeads')!;
    const template = deployed.nested.get(route.tag)!;
    const [, alias] = Object.entries(template.findResources('AWS::Lambda::Alias') as Record<string, Resource>).find(([id]) => id.startsWith(`${routeId(route)}Live`))!;
    const newVersion = alias.Properties.FunctionVersion;
    expect(newVersion).toEqual({ 'Fn::GetAtt': [expect.stringContaining(`${routeId(route)}FunctionCurrentVersion`), 'Version'] });
    const functionName = alias.Properties.FunctionName;
    const [alarmId] = Object.keys(template.findResources('AWS::CloudWatch::Alarm')).filter((id) => id.startsWith(`${routeId(route)}Failures`));
    const throughAlias = { FunctionName: functionName, Resource: { 'Fn::Join': ['', [functionName, ':live']] }, ExecutedVersion: newVersion };
    expect(failuresOf(template, alarmId!)).toEqual({
      expression: '100 * (FILL(answered5xx, 0) + FILL(crashed, 0)) / invocations',
      used: {
        answered5xx: { metric: 'SalesPipeline/ServerErrors Sum', dimensions: { service: 'sales-pipeline', operation: 'listLeads', version: newVersion } },
        crashed: { metric: 'AWS/Lambda/Errors Sum', dimensions: throughAlias },
        invocations: { metric: 'AWS/Lambda/Invocations Sum', dimensions: throughAlias },
      },
    });
  });

  it('rolls an authorizer back on its new version’s errors of every kind (a throw, a failed init, a timeout) less the keys it refuses, which Lambda counts as errors too', () => {
    for (const [name, authorizer] of [['Authorizer', 'apiKey'], ['InboundAuthorizer', 'inboundEndpoint']] as const) {
      const template = deployed.parent;
      const alias = Object.entries(template.findResources('AWS::Lambda::Alias') as Record<string, Resource>).find(([id]) => id.startsWith(`${name}Live`))![1];
      const newVersion = alias.Properties.FunctionVersion;
      const functionName = alias.Properties.FunctionName;
      const [alarmId] = Object.keys(template.findResources('AWS::CloudWatch::Alarm')).filter((id) => id.startsWith(`${name}Failures`));
      const ofNewVersion = { FunctionName: functionName, Resource: { 'Fn::Join': ['', [functionName, ':live']] }, ExecutedVersion: newVersion };
      expect(failuresOf(template, alarmId!), name).toEqual({
        expression: '100 * IF(FILL(crashed, 0) - FILL(refused, 0) > 0, FILL(crashed, 0) - FILL(refused, 0), 0) / invocations',
        used: {
          crashed: { metric: 'AWS/Lambda/Errors Sum', dimensions: ofNewVersion },
          refused: { metric: 'SalesPipeline/AuthorizerRefusals Sum', dimensions: { service: 'sales-pipeline', authorizer, version: newVersion } },
          invocations: { metric: 'AWS/Lambda/Invocations Sum', dimensions: ofNewVersion },
        },
      });
      const own = Object.entries(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>).filter(([id]) => id.startsWith(name));
      expect(own.length, name).toBe(2);
    }
  });

  it('publishes every function behind a live alias that API Gateway invokes', () => {
    const aliases = Object.values(deployed.resources('AWS::Lambda::Alias'));
    expect(aliases).toHaveLength(functionCount);
    for (const alias of aliases) expect(alias.Properties).toMatchObject({ Name: 'live', FunctionVersion: { 'Fn::GetAtt': [expect.stringContaining('CurrentVersion'), 'Version'] } });
    // ANY answers 405 from a mock; every other method invokes a function's live alias.
    for (const method of (Object.values(deployed.parent.findResources('AWS::ApiGateway::Method')) as Resource[]).filter((candidate) => candidate.Properties.HttpMethod !== 'ANY')) {
      expect(JSON.stringify(method.Properties.Integration.Uri)).toMatch(/Live/);
    }
  });

  it('shifts 10 % for 5 minutes, then all, rolling back on alarms', () => {
    expect(groups).toHaveLength(functionCount);
    for (const { group } of groups) {
      expect(group.Properties.DeploymentConfigName).toMatch(/Canary10Percent5Minutes/);
      expect(group.Properties.AlarmConfiguration.Enabled).toBe(true);
      expect(group.Properties.AutoRollbackConfiguration).toMatchObject({ Enabled: true, Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']) });
    }
  });

  it('rolls each function back on its own alarms only: its new version’s failures, its throttles and its route’s p99, never another route’s or the API’s', () => {
    for (const { id, group, template } of groups) {
      // The alias this group shifts, and the function behind it.
      const [, alias] = Object.entries(template.findResources('AWS::Lambda::Alias') as Record<string, Resource & { UpdatePolicy: any }>).find(([, candidate]) => candidate.UpdatePolicy.CodeDeployLambdaAliasUpdate.DeploymentGroupName.Ref === id)!;
      const functionId = alias.Properties.FunctionName.Ref as string;
      const watched = (group.Properties.AlarmConfiguration.Alarms as { Name: { Ref: string } }[]).map(({ Name }) => Name.Ref);
      const own = watched.map((alarmId) => rollback.find((candidate) => candidate.template === template && candidate.id === alarmId));
      expect(own.every(Boolean), `${id} watches only rollback alarms of its own template`).toBe(true);
      const throttles = own.filter((alarm) => metricOf(alarm!.alarm).Namespace === 'AWS/Lambda');
      expect(throttles.map((alarm) => metricOf(alarm!.alarm).MetricName), id).toEqual(['Throttles']);
      // The new version's throttles through the alias, as Lambda counts them by ExecutedVersion: not the old version's.
      expect(Object.fromEntries((metricOf(throttles[0]!.alarm).Dimensions as { Name: string; Value: unknown }[]).map(({ Name, Value }) => [Name, Value])), id).toEqual({
        FunctionName: { Ref: functionId },
        Resource: { 'Fn::Join': ['', [{ Ref: functionId }, ':live']] },
        ExecutedVersion: alias.Properties.FunctionVersion,
      });
      const route = routes.find((candidate) => !candidate.aliasOf && functionId.startsWith(`${routeId(candidate)}Function`));
      // Its failures: every metric of the one expression is of this function's new version, the one its alias moves to.
      const failures = own.filter((alarm) => alarm!.alarm.Properties.Metrics?.some((metric: any) => metric.Expression));
      expect(failures, id).toHaveLength(1);
      const { used } = failuresOf(template, failures[0]!.id);
      for (const [metricId, { metric, dimensions }] of Object.entries(used)) {
        if (metric.startsWith('AWS/Lambda/')) expect(dimensions, `${id} ${metricId}`).toMatchObject({ FunctionName: { Ref: functionId }, ExecutedVersion: alias.Properties.FunctionVersion });
        else expect(dimensions, `${id} ${metricId}`).toMatchObject({ version: alias.Properties.FunctionVersion, ...(route ? { operation: route.operationId } : {}) });
      }
      // Updated to the new version before CloudFormation moves the alias, which starts the canary.
      expect((alias as Resource & { DependsOn?: string[] }).DependsOn ?? [], id).toEqual(expect.arrayContaining(watched));
      const latency = own.filter((alarm) => alarm!.alarm.Properties.MetricName === 'Latency');
      // A route's function also watches its route's p99; an authorizer has no route.
      expect(latency.map((alarm) => alarm!.alarm.Properties.Dimensions.find((d: any) => d.Name === 'operation').Value), id).toEqual(route ? [route.operationId] : []);
    }
    // The API's 5xx rate reaches no nested stack, as it would have to in order to roll a function back.
    for (const template of deployed.templates.slice(1)) expect(JSON.stringify(template.toJSON().Parameters ?? {})).not.toMatch(/Api5xxRate|Monitoring/);
  });
});

describe('what docs/capacity.md says the alarms cost', () => {
  // CloudWatch bills an alarm by the metrics it reads: one, or each of its metric math's.
  const metricsOf = (alarm: Resource): number => (alarm.Properties.Metrics ? alarm.Properties.Metrics.filter((metric: { MetricStat?: unknown }) => metric.MetricStat).length : 1);
  const dollars = (metrics: number) => `$${(metrics / 10).toFixed(2)}`;

  it('states the alarms per route, per authorizer and for the rest as the templates have them, so another route changes no figure', () => {
    const alarms = [...deployed.templates, deployed.events].flatMap((template) => Object.entries(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>).map(([id, alarm]) => ({ id, alarm, template })));
    // Each function's own alarms are those its canary watches; a route's function is named by its route.
    const perFunction = deployed.templates.flatMap((template) =>
      Object.values(template.findResources('AWS::CodeDeploy::DeploymentGroup') as Record<string, Resource>).map((group) => {
        const watched = (group.Properties.AlarmConfiguration.Alarms as { Name: { Ref: string } }[]).map(({ Name }) => alarms.find((alarm) => alarm.template === template && alarm.id === Name.Ref)!);
        const isRoute = watched.some(({ alarm }) => alarm.Properties.MetricName === 'Latency');
        return { kind: isRoute ? 'route' : 'authorizer', alarms: watched.length, metrics: watched.reduce((sum, { alarm }) => sum + metricsOf(alarm), 0) };
      }),
    );
    const each = (kind: string) => {
      const functions = perFunction.filter((fn) => fn.kind === kind);
      // Every function of a kind has the same alarms, so one figure states them all.
      expect(new Set(functions.map(({ alarms: count, metrics }) => `${count} ${metrics}`)).size, kind).toBe(1);
      return { count: functions.length, alarms: functions[0]!.alarms, metrics: functions[0]!.metrics };
    };
    const route = each('route');
    const authorizer = each('authorizer');
    expect(route.count).toBe(functionCount - 2);
    const rest = {
      alarms: alarms.length - route.count * route.alarms - authorizer.count * authorizer.alarms,
      metrics: alarms.reduce((sum, { alarm }) => sum + metricsOf(alarm), 0) - route.count * route.metrics - authorizer.count * authorizer.metrics,
    };
    const capacity = readFileSync('docs/capacity.md', 'utf8').replace(/\s+/g, ' ');
    const stated = /per route (\d+) alarms reading (\d+) metrics \((\$[\d.]+)\b.*? per authorizer (\d+) reading (\d+) \((\$[\d.]+)\b.*? and (\d+) more reading (\d+) metrics \((\$[\d.]+)\b/.exec(capacity);
    expect(stated, 'docs/capacity.md states the alarms per route, per authorizer and the rest').not.toBeNull();
    const [, ...figures] = stated!;
    const figuresOf = ({ alarms: count, metrics }: { alarms: number; metrics: number }) => [String(count), String(metrics), dollars(metrics)];
    expect(figures).toEqual([...figuresOf(route), ...figuresOf(authorizer), ...figuresOf(rest)]);
  });
});

describe('concurrency', () => {
  const reserved = (deployment: ReturnType<typeof synth>) =>
    Object.fromEntries(Object.entries(deployment.resources('AWS::Lambda::Function')).filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined).map(([id, fn]) => [id.replace(/[0-9A-F]{8}$/, ''), fn.Properties.ReservedConcurrentExecutions]));

  it('reserves 100 for the API key authorizer, so no burst elsewhere in the account can throttle it and with it every keyed request; of the routes, only the consent page, which fetches client documents, and as its row says', () => {
    expect(DEFAULT_CONCURRENCY.authorizer).toBe(100);
    expect(getOAuthAuthorize.reservedConcurrency).toBe(10);
    expect(routes.filter((route) => route.reservedConcurrency !== undefined).map((route) => route.operationId)).toEqual(['getOAuthAuthorize']);
    expect(reserved(deployed)).toEqual({ AuthorizerFunction: 100, [`${routeId(getOAuthAuthorize)}Function`]: getOAuthAuthorize.reservedConcurrency });
  });

  it('states in docs/operations.md what every reservation and queue consumer’s ceiling is, as the templates have them, and what the reservations leave of an account’s 1 000', () => {
    const section = readFileSync('docs/operations.md', 'utf8').split('\n## Concurrency\n')[1]!.split('\n## ')[0]!;
    const rowOf = (name: string) => {
      const rows = section.split('\n').filter((line) => line.startsWith('|') && line.split('|')[1]!.includes(`\`${name}\``));
      expect(rows, `docs/operations.md's concurrency table names ${name} once`).toHaveLength(1);
      return rows[0]!.split('|')[2]!;
    };
    const functionsOf = (template: Template) => Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).map(([id, fn]) => ({ id, name: id.replace(/Function[0-9A-F]{8}$/, ''), fn }));
    const all = [...deployed.templates, deployed.events].flatMap(functionsOf);
    const reserving = all.filter(({ fn }) => fn.Properties.ReservedConcurrentExecutions !== undefined);
    expect(reserving.map(({ name }) => name).sort()).toEqual(['Authorizer', 'CountReports', 'GetOAuthAuthorize', 'RecordEvents']);
    for (const { name, fn } of reserving) expect(rowOf(name), name).toContain(`${fn.Properties.ReservedConcurrentExecutions} reserved`);
    const ceilings = Object.values(deployed.events.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter((mapping) => mapping.Properties.ScalingConfig);
    // The webhook deliverer's, the automation step runner's, the sign-in code worker's, the report recounts' and the bulk enrolments'.
    expect(ceilings).toHaveLength(5);
    for (const mapping of ceilings) {
      const { name } = all.find(({ id }) => id === mapping.Properties.FunctionName.Ref)!;
      expect(rowOf(name), name).toContain(`at most ${mapping.Properties.ScalingConfig.MaximumConcurrency} concurrent`);
    }
    const left = 1000 - reserving.reduce((sum, { fn }) => sum + fn.Properties.ReservedConcurrentExecutions, 0);
    expect(/the defaults leave (\d+) for everything else/.exec(section.replace(/\s+/g, ' '))?.[1]).toBe(String(left));
  });

  it('takes another reservation, or none, by context, and refuses a value that is not a count', () => {
    expect(reserved(tuned)).toEqual({ AuthorizerFunction: 250, GetOAuthAuthorizeFunction: 10 });
    expect(reserved(synth({ authorizerConcurrency: 'none', routeConcurrency: 'none' }))).toEqual({});
    expect(() => synth({ routeConcurrency: 5 })).toThrow(/routeConcurrency takes none only/);
    expect(() => synth({ authorizerConcurrency: 0 })).toThrow(/authorizerConcurrency must be a number from 1/);
    expect(() => synth({ authorizerConcurrency: 'lots' })).toThrow(/authorizerConcurrency must be a number/);
  });
});

describe('architecture', () => {
  it('runs every function on arm64, or every one on x86_64 by context', () => {
    const architectures = (deployment: ReturnType<typeof synth>) => new Set(Object.values(deployment.resources('AWS::Lambda::Function')).map((fn) => String(fn.Properties.Architectures)));
    expect(architectures(deployed)).toEqual(new Set(['arm64']));
    expect(architectures(tuned)).toEqual(new Set(['x86_64']));
    expect(() => synth({ architecture: 'sparc' })).toThrow(/architecture must be arm64 or x86_64/);
  });
});

describe('options by context', () => {
  const only = (deployment: ReturnType<typeof synth>, type: string) => {
    const found = Object.entries(deployment.parent.findResources(type) as Record<string, Resource>);
    expect(found, type).toHaveLength(1);
    return found[0]!;
  };
  /** A rate-based rule of the deployment's web ACL, by name: its limit, its key and the paths it is scoped to. */
  const rateRule = (deployment: ReturnType<typeof synth>, name: string) => {
    const [, acl] = only(deployment, 'AWS::WAFv2::WebACL');
    const rule = (acl.Properties.Rules as Array<Record<string, any>>).find((candidate) => candidate.Name === name)!;
    const { Limit, AggregateKeyType, ForwardedIPConfig, ScopeDownStatement } = rule.Statement.RateBasedStatement;
    return { acl, rule, Limit, AggregateKeyType, ForwardedIPConfig, ScopeDownStatement, scoped: new RegExp(ScopeDownStatement.RegexMatchStatement.RegexString) };
  };
  const [apiId] = only(deployed, 'AWS::ApiGateway::RestApi');
  const [stageId] = only(deployed, 'AWS::ApiGateway::Stage');

  it('adds a custom domain only when configured, on the console’s distribution, which serves the API on its origin: the certificate (from us-east-1) at TLS 1.2, and A and AAAA aliases', () => {
    const [distributionId, distribution] = only(tuned, 'AWS::CloudFront::Distribution');
    expect(distribution.Properties.DistributionConfig).toMatchObject({
      Aliases: ['api.example.com'],
      ViewerCertificate: { AcmCertificateArn: domainContext.certificateArn, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
    });
    const records = Object.values(tuned.parent.findResources('AWS::Route53::RecordSet') as Record<string, Resource>).map((record) => record.Properties);
    const alias = { DNSName: { 'Fn::GetAtt': [distributionId, 'DomainName'] }, HostedZoneId: expect.anything() };
    expect(records).toEqual([expect.objectContaining({ Name: 'api.example.com.', Type: 'A', HostedZoneId: 'Z123', AliasTarget: alias }), expect.objectContaining({ Name: 'api.example.com.', Type: 'AAAA', HostedZoneId: 'Z123', AliasTarget: alias })]);
    tuned.parent.hasOutput('CustomDomainUrl', { Value: 'https://api.example.com/' });
    // The stage keeps only its own URL: the domain is the distribution's.
    tuned.parent.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    deployed.parent.resourceCountIs('AWS::Route53::RecordSet', 0);
    const [, defaultDistribution] = only(deployed, 'AWS::CloudFront::Distribution');
    expect(defaultDistribution.Properties.DistributionConfig.Aliases).toBeUndefined();
    expect(() => synth({ domainName: 'api.example.com' })).toThrow(/missing certificateArn, hostedZoneId, hostedZoneName/);
  });

  it('refuses a custom domain’s certificate outside us-east-1, where CloudFront takes it from, naming the region', () => {
    for (const region of ['ap-southeast-2', 'us-east-2']) {
      expect(() => synth({ ...domainContext, certificateArn: `arn:aws:acm:${region}:123456789012:certificate/abc` })).toThrow(new RegExp(`certificate from ACM in us-east-1 only; certificateArn is in ${region}`));
    }
  });

  it('gives every route’s function the API’s own base URL (PUBLIC_BASE_URL): the custom domain when configured, else the console’s distribution, which serves the API on its origin', () => {
    const [consoleId] = only(deployed, 'AWS::CloudFront::Distribution');
    // A nested stack reads the API's id through a parameter its parent passes.
    const parameters = Object.assign({}, ...Object.values(deployed.parent.findResources('AWS::CloudFormation::Stack')).map((stack) => stack.Properties.Parameters));
    const resolved = (value: unknown) => JSON.parse(JSON.stringify(value), (_, part) => (typeof part?.Ref === 'string' && parameters[part.Ref] ? parameters[part.Ref] : part));
    const routeFunctions = (deployment: ReturnType<typeof synth>) => Object.entries(deployment.resources('AWS::Lambda::Function')).filter(([id]) => !/^(Inbound)?Authorizer/.test(id));
    expect(routeFunctions(deployed)).toHaveLength(routes.filter((route) => !route.aliasOf).length);
    expect(routeFunctions(deployed).map(([id]) => id)).toEqual(expect.arrayContaining([expect.stringMatching(/^PostMcp/), expect.stringMatching(/^CreateInboundEndpoint/), expect.stringMatching(/^RotateInboundEndpoint/), expect.stringMatching(/^GetOpenApiDocument/)]));
    for (const [id, fn] of routeFunctions(deployed)) {
      expect(resolved(fn.Properties.Environment.Variables.PUBLIC_BASE_URL), id).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [consoleId, 'DomainName'] }]] });
    }
    for (const [id, fn] of routeFunctions(tuned)) expect(fn.Properties.Environment.Variables.PUBLIC_BASE_URL, id).toBe('https://api.example.com');
  });

  it('puts AWS WAF in front of the stage unless -c waf=false: the origin secret first, the common rule set, and rates per viewer, associated with the API’s stage', () => {
    const [aclId, acl] = only(tuned, 'AWS::WAFv2::WebACL');
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const perViewer = { AggregateKeyType: 'FORWARDED_IP', ForwardedIPConfig: { HeaderName: VIEWER_ADDRESS_HEADER, FallbackBehavior: 'MATCH' } };
    expect(acl.Properties.Rules).toEqual([
      expect.objectContaining({ Name: 'OriginSecretMissing', Priority: 0, Action: { Block: {} } }),
      expect.objectContaining({
        Priority: 1,
        OverrideAction: { None: {} },
        Statement: {
          ManagedRuleGroupStatement: {
            VendorName: 'AWS',
            Name: 'AWSManagedRulesCommonRuleSet',
            RuleActionOverrides: ['SizeRestrictions_BODY', 'GenericRFI_QUERYARGUMENTS', 'GenericRFI_BODY'].map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
          },
        },
      }),
      expect.objectContaining({ Name: 'BodyOverLimit', Priority: 2 }),
      expect.objectContaining({ Name: 'InboundBodyOverLimit', Priority: 3 }),
      expect.objectContaining({ Priority: 4, Action: { Block: {} }, Statement: { RateBasedStatement: { Limit: 500, ...perViewer } } }),
      expect.objectContaining({ Name: 'InboundRatePerIp', Priority: 5 }),
      expect.objectContaining({ Name: 'AnonymousRatePerIp', Priority: 6 }),
      expect.objectContaining({ Name: 'IPv4UrlOutsideOAuth', Priority: 7, Action: { Block: {} } }),
    ]);
    const [, association] = only(tuned, 'AWS::WAFv2::WebACLAssociation');
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    // The stage's ARN: arn:<partition>:apigateway:<region>::/restapis/<api>/stages/<stage>.
    const stageArn = JSON.stringify(association.Properties.ResourceArn);
    expect(stageArn).toMatch(/:apigateway:/);
    expect(stageArn).toContain(`"Ref":"${apiId}"`);
    expect(stageArn).toContain(`"Ref":"${stageId}"`);
    expect(stageArn).toMatch(/::\/restapis\/.*\/stages\//);
    deployed.parent.resourceCountIs('AWS::WAFv2::WebACL', 1);
    synth({ alarmEmail: 'none', waf: 'false' }).parent.resourceCountIs('AWS::WAFv2::WebACL', 0);
    for (const waf of ['no', 'False', 'true ']) expect(() => synth({ alarmEmail: 'none', waf })).toThrow(/Context waf must be true or false/);
    expect(() => synth({ wafRatePerIp: 5 })).toThrow(/wafRatePerIp must be a number from 10/);
  });

  it('makes the distribution the one way in: a REGIONAL API, the origin secret by reference, the viewer function on every API path, HSTS on every behaviour, the stage counting viewers', () => {
    expect(only(deployed, 'AWS::ApiGateway::RestApi')[1].Properties.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
    const [, distribution] = only(deployed, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig;
    const apiOrigin = config.Origins.find((origin: Record<string, any>) => origin.CustomOriginConfig);
    const [header] = apiOrigin.OriginCustomHeaders;
    expect(header.HeaderName).toBe(ORIGIN_SECRET_HEADER);
    // A dynamic reference to the generated secret: the template never holds the value.
    expect(JSON.stringify(header.HeaderValue)).toMatch(/^\{"Fn::Join":\["",\["\{\{resolve:secretsmanager:",\{"Ref":"OriginSecret[0-9A-F]{8}"\},":SecretString:::\}\}"\]\]\}$/);
    const apiBehaviors = [config.DefaultCacheBehavior, ...config.CacheBehaviors.filter((behavior: Record<string, any>) => behavior.TargetOriginId === apiOrigin.Id)];
    const viewerFunctions = deployed.parent.findResources('AWS::CloudFront::Function', { Properties: { FunctionConfig: { Comment: Match.stringLikeRegexp('viewer address') } } });
    const [viewerFunctionId] = Object.keys(viewerFunctions);
    // The very file the local edge runs and its tests test (functions/sign-in/edge/viewer-request.js).
    expect(viewerFunctions[viewerFunctionId!]!.Properties.FunctionCode).toBe(readFileSync(new URL('../functions/sign-in/edge/viewer-request.js', import.meta.url), 'utf8'));
    const [headersPolicyId] = Object.keys(deployed.parent.findResources('AWS::CloudFront::ResponseHeadersPolicy', { Properties: { ResponseHeadersPolicyConfig: { Comment: Match.stringLikeRegexp('HSTS on the API') } } }));
    for (const behavior of apiBehaviors) {
      expect(behavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [viewerFunctionId, 'FunctionARN'] } }]);
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: headersPolicyId });
    }
    // HSTS on every behaviour, the console's pages as well as the API's answers: a year, subdomains, over any origin's.
    const policies = deployed.parent.findResources('AWS::CloudFront::ResponseHeadersPolicy');
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      const policy = policies[behavior.ResponseHeadersPolicyId.Ref];
      expect(policy?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.StrictTransportSecurity, behavior.PathPattern ?? 'default').toEqual({ AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true, Override: true });
    }
    expect(config.CacheBehaviors.map((behavior: Record<string, any>) => behavior.PathPattern)).toContain('/console*');
    expect(only(deployed, 'AWS::ApiGateway::Stage')[1].Properties.Variables).toEqual({ [VIEWER_ADDRESS_STAGE_VARIABLE]: VIEWER_ADDRESS_HEADER });
    // Without the firewall the API's own URL stays open: the stage counts the connection, which no client can write.
    expect(only(synth({ waf: 'false' }), 'AWS::ApiGateway::Stage')[1].Properties.Variables ?? {}).toEqual({});
    // The firewall's first rule: only a request carrying the current or the previous origin secret passes.
    const [, acl] = only(deployed, 'AWS::WAFv2::WebACL');
    const first = acl.Properties.Rules[0];
    const matched = first.Statement.NotStatement.Statement.OrStatement.Statements.map((statement: Record<string, any>) => JSON.stringify(statement.ByteMatchStatement.SearchString).match(/"Ref":"(OriginSecret\w*?)[0-9A-F]{8}"/)![1]);
    expect(matched).toEqual(['OriginSecret', 'OriginSecretPrevious']);
    expect(first.Statement.NotStatement.Statement.OrStatement.Statements[0].ByteMatchStatement).toMatchObject({ FieldToMatch: { SingleHeader: { Name: ORIGIN_SECRET_HEADER } }, PositionalConstraint: 'EXACTLY' });
  });

  it('stops one viewer on the anonymous routes that share a throttle, below that throttle, before their functions', () => {
    const { rule, Limit, AggregateKeyType, ForwardedIPConfig, scoped } = rateRule(deployed, 'AnonymousRatePerIp');
    expect({ Limit, AggregateKeyType, ForwardedIPConfig }).toEqual({ Limit: 300, AggregateKeyType: 'FORWARDED_IP', ForwardedIPConfig: { HeaderName: VIEWER_ADDRESS_HEADER, FallbackBehavior: 'MATCH' } });
    const anonymous = routes.filter((route) => route.throttle && !route.path.startsWith('/v1/inbound/'));
    expect(anonymous.map((route) => route.operationId).sort()).toEqual(
      ['getOAuthAuthorize', 'passkeySignInOptions', 'postOAuthAuthorize', 'postOAuthToken', 'registerOAuthClient', 'requestSignInCode', 'signInWithCode', 'signInWithPasskey'],
    );
    for (const route of anonymous) {
      for (const path of [route.path, `/prod${route.path}`]) expect(scoped.test(path), path).toBe(true);
      // Five minutes of the limit stay below one second of the route's shared throttle.
      expect(Limit / 300, route.path).toBeLessThan(route.throttle!.rateLimit);
    }
    for (const path of ['/v1/leads', '/oauth/registerx', '/v1/sign-in/codes/x', '/x/oauth/token', '/v1/inbound/inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ']) expect(scoped.test(path), path).toBe(false);
    expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(429);
  });

  it('lets bodies the API takes through the firewall: the common rule set’s 8 KB body rule only counts, and a Content-Length over the route’s limit is answered 413', () => {
    const [, acl] = only(tuned, 'AWS::WAFv2::WebACL');
    type Statement = Record<string, any>;
    const ruleOf = (name: string) => (acl.Properties.Rules as Array<Record<string, any>>).find((rule) => rule.Name === name)!;
    /** Whether a request passes a rule's statement, evaluated as WAF would on its path and Content-Length header. */
    const matches = (statement: Statement, request: { path: string; contentLength: string }): boolean => {
      if (statement.AndStatement) return statement.AndStatement.Statements.every((inner: Statement) => matches(inner, request));
      if (statement.NotStatement) return !matches(statement.NotStatement.Statement, request);
      const { FieldToMatch, RegexString } = statement.RegexMatchStatement;
      const value = FieldToMatch.UriPath ? request.path : FieldToMatch.SingleHeader.Name === 'content-length' ? request.contentLength : undefined;
      return new RegExp(RegexString).test(value!);
    };
    const blocked = (request: { path: string; contentLength: number | string }) =>
      ['BodyOverLimit', 'InboundBodyOverLimit'].filter((name) => matches(ruleOf(name).Statement, { ...request, contentLength: String(request.contentLength) }));
    const KB = 1024;
    for (const path of ['/prod/v1/leads', '/v1/products/batch']) {
      expect(blocked({ path, contentLength: 8 * KB + 1 }), path).toEqual([]);
      expect(blocked({ path, contentLength: 256 * KB }), path).toEqual([]);
      expect(blocked({ path, contentLength: 256 * KB + 1 }), path).toEqual(['BodyOverLimit']);
      expect(blocked({ path, contentLength: `000${256 * KB + 1}` }), path).toEqual(['BodyOverLimit']);
    }
    for (const path of ['/prod/v1/inbound/ibe_01HZZZZZZZZZZZZZZZZZZZZZZZ', '/v1/inbound/ibe_1']) {
      expect(blocked({ path, contentLength: 256 * KB + 1 }), path).toEqual([]);
      expect(blocked({ path, contentLength: 3 * KB * KB }), path).toEqual([]);
      expect(blocked({ path, contentLength: 3 * KB * KB + 1 }), path).toEqual(['InboundBodyOverLimit']);
    }
    // Only the inbound route's own path takes more: not a path that merely contains it.
    expect(blocked({ path: '/v1/leads/v1/inbound/x', contentLength: 256 * KB + 1 })).toEqual(['BodyOverLimit']);
    // Both answer the functions' 413 envelope.
    for (const [name, limitKb] of [['BodyOverLimit', 256], ['InboundBodyOverLimit', 3072]] as const) {
      const { CustomResponse } = ruleOf(name).Action.Block;
      expect(CustomResponse.ResponseCode).toBe(413);
      expect(JSON.parse(acl.Properties.CustomResponseBodies[CustomResponse.CustomResponseBodyKey].Content)).toEqual({
        success: false,
        message: `The request body is larger than ${limitKb} KB`,
        error: { status: 413, message: `The request body is larger than ${limitKb} KB`, code: 'PAYLOAD_TOO_LARGE' },
      });
    }
  });

  it('lets a CLI client’s loopback redirect URI through to OAuth’s endpoints, and blocks a URL to an IPv4 host elsewhere as the common rule set does', () => {
    const [, acl] = only(tuned, 'AWS::WAFv2::WebACL');
    type Statement = Record<string, any>;
    type Request = { path: string; query?: string; body?: string };
    const rules = acl.Properties.Rules as Array<Record<string, any>>;
    // The rule set's remote file inclusion rules, as AWS documents them: an http(s), ftp(s) or file URL whose host is an
    // IPv4 address, in a query argument's value or the body, URL-decoded. (Its EC2 metadata rules look for
    // 169.254.169.254 only, its LFI rules for `../`: neither matches a loopback URI.)
    const ipv4Url = /(?:https?|ftps?|file):\/\/\d{1,3}(?:\.\d{1,3}){3}\b/i;
    const managedMatches = ({ query = '', body = '' }: Request) => ({
      GenericRFI_QUERYARGUMENTS: [...new URLSearchParams(query).values()].some((value) => ipv4Url.test(value)),
      GenericRFI_BODY: ipv4Url.test(decodeURIComponent(body.replace(/\+/g, ' '))),
    });
    const matches = (statement: Statement, request: Request, labels: string[]): boolean => {
      if (statement.AndStatement) return statement.AndStatement.Statements.every((inner: Statement) => matches(inner, request, labels));
      if (statement.OrStatement) return statement.OrStatement.Statements.some((inner: Statement) => matches(inner, request, labels));
      if (statement.NotStatement) return !matches(statement.NotStatement.Statement, request, labels);
      if (statement.LabelMatchStatement) return labels.includes(statement.LabelMatchStatement.Key);
      if (statement.RegexMatchStatement?.FieldToMatch.UriPath) return new RegExp(statement.RegexMatchStatement.RegexString).test(request.path);
      return false;
    };
    /** What blocks the request: a rule of the managed group left to block, or one of ours that reads its labels. */
    const blockedBy = (request: Request): string[] => {
      const group = rules.find((rule) => rule.Statement.ManagedRuleGroupStatement)!;
      const counted = (group.Statement.ManagedRuleGroupStatement.RuleActionOverrides as { Name: string }[]).map(({ Name }) => Name);
      const matched = Object.entries(managedMatches(request)).filter(([, hit]) => hit).map(([name]) => name);
      const inGroup = matched.filter((name) => !counted.includes(name));
      if (inGroup.length) return inGroup;
      const labels = matched.map((name) => IPV4_URL_RULES.find((rule) => rule.name === name)!.label);
      return rules.filter((rule) => rule.Name === 'IPv4UrlOutsideOAuth' && matches(rule.Statement, request, labels)).map((rule) => rule.Name);
    };
    const loopback = 'http://127.0.0.1:33418/callback';
    const authorize = new URLSearchParams({ response_type: 'code', client_id: 'client_1', redirect_uri: loopback, code_challenge: 'x', code_challenge_method: 'S256', state: 's' }).toString();
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'c', redirect_uri: loopback, code_verifier: 'v', client_id: 'client_1' }).toString();
    for (const stage of ['/prod', '']) {
      expect(blockedBy({ path: `${stage}/oauth/authorize`, query: authorize }), stage).toEqual([]);
      expect(blockedBy({ path: `${stage}/oauth/authorize`, body: form }), stage).toEqual([]);
      expect(blockedBy({ path: `${stage}/oauth/token`, body: form }), stage).toEqual([]);
      expect(blockedBy({ path: `${stage}/oauth/register`, body: JSON.stringify({ client_name: 'CLI', redirect_uris: [loopback] }) }), stage).toEqual([]);
    }
    // Without the exception the rule set would have blocked each of them: the model reads them as the rules do.
    expect(managedMatches({ path: '/oauth/authorize', query: authorize }).GenericRFI_QUERYARGUMENTS).toBe(true);
    expect(managedMatches({ path: '/oauth/token', body: form }).GenericRFI_BODY).toBe(true);
    // Everywhere else, and on a path that only looks like OAuth's, a URL to an IPv4 host is blocked as before.
    for (const path of ['/prod/v1/leads', '/prod/oauth/authorizex', '/prod/oauth/token/x', '/prod/v1/oauth/authorize', '/x/oauth/token', '/prod/oauth/authorize/']) {
      expect(blockedBy({ path, query: `q=${encodeURIComponent('http://10.0.0.1/shell.txt')}` }), path).toEqual(['IPv4UrlOutsideOAuth']);
      expect(blockedBy({ path, body: JSON.stringify({ url: loopback }) }), path).toEqual(['IPv4UrlOutsideOAuth']);
    }
    // A redirect URI with a host name was never matched.
    expect(blockedBy({ path: '/prod/v1/leads', query: 'redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb' })).toEqual([]);
  });

  it('limits posts to the public inbound URLs per IP on their own, below the rate of the whole API, answered 429 RATE_LIMITED with Retry-After', () => {
    const { acl, rule, Limit, AggregateKeyType, ForwardedIPConfig, ScopeDownStatement, scoped } = rateRule(tuned, 'InboundRatePerIp');
    expect({ Limit, AggregateKeyType, ForwardedIPConfig }).toEqual({ Limit: 120, AggregateKeyType: 'FORWARDED_IP', ForwardedIPConfig: { HeaderName: VIEWER_ADDRESS_HEADER, FallbackBehavior: 'MATCH' } });
    // Scoped to the inbound route's own path, with or without the stage in front; no other path counts.
    expect(ScopeDownStatement.RegexMatchStatement.FieldToMatch).toEqual({ UriPath: {} });
    for (const path of ['/prod/v1/inbound/inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ', '/v1/inbound/inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ']) expect(scoped.test(path), path).toBe(true);
    for (const path of ['/v1/inbound-endpoints', '/v1/leads', '/v1/leads/v1/inbound/x']) expect(scoped.test(path), path).toBe(false);
    const { CustomResponse } = rule.Action.Block;
    expect(CustomResponse.ResponseCode).toBe(429);
    expect(CustomResponse.ResponseHeaders).toEqual(expect.arrayContaining([{ Name: 'Retry-After', Value: String(INBOUND_RETRY_AFTER_SECONDS) }]));
    expect(JSON.parse(acl.Properties.CustomResponseBodies[CustomResponse.CustomResponseBodyKey].Content)).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.THROTTLED));
    expect(() => synth({ wafRatePerIp: 500, wafInboundRatePerIp: 5 })).toThrow(/wafInboundRatePerIp must be a number from 10/);
  });

  it('compares a Content-Length as a number: greaterThanPattern matches exactly the numbers above its limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 2 ** 40 }), fc.nat({ max: 3 }), (limit, value, zeros) => {
        expect(new RegExp(greaterThanPattern(limit)).test('0'.repeat(zeros) + String(value))).toBe(value > limit);
        expect(new RegExp(greaterThanPattern(limit)).test(String(limit + 1))).toBe(true);
        expect(new RegExp(greaterThanPattern(limit)).test(String(limit))).toBe(false);
      }),
    );
    for (const text of ['', '-1', '1e9', ' 300000', '300000 ', '0x50000']) expect(new RegExp(greaterThanPattern(256 * 1024)).test(text), text).toBe(false);
  });

  it('sets the stage throttle and the authorizer cache TTL', () => {
    tuned.parent.hasResourceProperties('AWS::ApiGateway::Stage', { MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 300, ThrottlingBurstLimit: 600 })]) });
    tuned.parent.hasResourceProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 60 });
    expect(() => synth({ authorizerCacheTtl: 'soon' })).toThrow(/authorizerCacheTtl must be a number/);
    expect(() => synth({ logLevel: 'LOUD' })).toThrow(/logLevel must be DEBUG, INFO, WARN or ERROR/);
  });
});

describe('sam local on the synthesized template', () => {
  it('declares the DynamoDB endpoint on every function, for --env-vars to point at DynamoDB Local', () => {
    for (const [logicalId, fn] of Object.entries(deployed.resources('AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables, logicalId).toHaveProperty('AWS_ENDPOINT_URL_DYNAMODB', '');
    }
  });

  it('gives functions the table name as a plain value, with no Fn::ImportValue anywhere', () => {
    for (const fn of Object.values(deployed.resources('AWS::Lambda::Function'))) expect(fn.Properties.Environment.Variables.TABLE_NAME).toBe('sales-pipeline');
    for (const template of deployed.templates) expect(JSON.stringify(template.toJSON())).not.toContain('Fn::ImportValue');
    for (const fn of Object.values(tuned.resources('AWS::Lambda::Function'))) expect(fn.Properties.Environment.Variables.TABLE_NAME).toBe('sales-pipeline-staging');
  });

  it('keeps each function’s resources in the nested stack of its tag, under CloudFormation’s 500', () => {
    for (const template of deployed.templates) expect(Object.keys(template.toJSON().Resources).length).toBeLessThan(500);
    for (const route of routes) expect(Object.keys(deployed.resources('AWS::Lambda::Function')).some((id) => id.startsWith(routeId(route)))).toBe(true);
  });
});

import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { ACCESS_LOG_FIELDS } from '../infra/cdk/api-stack';
import { ALARM_THRESHOLDS } from '../infra/cdk/monitoring';
import { routes } from '../functions/resources';
import { routeId } from '../shared/routes/route';

type Resource = { Properties: Record<string, any> };

/** The API stack's templates (it and its nested function stacks), synthesized offline with `context`. */
function synth(context: Record<string, unknown> = {}) {
  const { api } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }));
  const parent = Template.fromStack(api);
  const templates = [parent, ...[...api.functionStacks.values()].map((stack) => Template.fromStack(stack))];
  const resources = (type: string) => Object.assign({}, ...templates.map((template) => template.findResources(type))) as Record<string, Resource>;
  return { parent, templates, resources };
}

const deployed = synth({ alarmEmail: 'oncall@example.com' });
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
    const debug = synth({ logLevel: 'DEBUG', debugSampleRate: 0.5 });
    for (const fn of Object.values(debug.resources('AWS::Lambda::Function'))) {
      expect(fn.Properties.LoggingConfig.ApplicationLogLevel).toBe('DEBUG');
      expect(fn.Properties.Environment.Variables.POWERTOOLS_LOGGER_SAMPLE_RATE).toBe('0.5');
    }
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

describe('alarms and the dashboard', () => {
  const alarms = Object.values(deployed.resources('AWS::CloudWatch::Alarm'));
  const topic = Object.keys(deployed.parent.findResources('AWS::SNS::Topic'))[0]!;

  it('alarms on the API’s 5xx rate, DynamoDB throttles and system errors', () => {
    const rate = alarms.find((alarm) => JSON.stringify(alarm.Properties.Metrics ?? []).includes('5XXError'));
    expect(rate?.Properties).toMatchObject({ Threshold: ALARM_THRESHOLDS.api5xxPercent, TreatMissingData: 'notBreaching' });
    expect(JSON.stringify(alarms)).toContain('ReadThrottleEvents');
    expect(JSON.stringify(alarms)).toContain('WriteThrottleEvents');
    expect(JSON.stringify(alarms)).toContain('SystemErrors');
  });

  it('alarms on each route’s p99 and each function’s errors and throttles, both authorizers included', () => {
    // A PATCH alias runs its PUT's function, which measures it under the PUT's operation.
    for (const route of routes.filter((candidate) => !candidate.aliasOf)) {
      const p99 = alarms.find((alarm) => alarm.Properties.MetricName === 'Latency' && alarm.Properties.Dimensions?.some((d: any) => d.Name === 'operation' && d.Value === route.operationId));
      expect(p99?.Properties, route.operationId).toMatchObject({ Namespace: 'SalesPipeline', ExtendedStatistic: 'p99', Threshold: ALARM_THRESHOLDS.routeP99Ms });
    }
    // A labelled metric is written as a one-metric MetricStat.
    const metricOf = (alarm: Resource) => alarm.Properties.Metrics?.[0]?.MetricStat?.Metric ?? alarm.Properties;
    const byMetric = (name: string) => alarms.filter((alarm) => metricOf(alarm).Namespace === 'AWS/Lambda' && metricOf(alarm).MetricName === name);
    expect(byMetric('Errors')).toHaveLength(functionCount);
    expect(byMetric('Throttles')).toHaveLength(functionCount);
  });

  it('sends every alarm and its recovery to the SNS topic, which emails the configured address', () => {
    for (const alarm of alarms) {
      expect(JSON.stringify(alarm.Properties.AlarmActions)).toMatch(new RegExp(`${topic}|AlarmsTopicArn|Monitoring`));
      expect(alarm.Properties.OKActions).toHaveLength(1);
    }
    deployed.parent.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
    expect(Object.keys(synth().parent.findResources('AWS::SNS::Subscription'))).toHaveLength(0);
  });

  it('has a dashboard of the same signals', () => {
    const dashboard = Object.values(deployed.parent.findResources('AWS::CloudWatch::Dashboard'))[0] as Resource;
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const signal of ['5XXError', 'Latency', 'IntegrationLatency', 'Errors', 'Throttles', 'ReadThrottleEvents', 'SystemErrors']) expect(body).toContain(signal);
  });
});

describe('canary deployments', () => {
  it('publishes every function behind a live alias that API Gateway invokes', () => {
    const aliases = Object.values(deployed.resources('AWS::Lambda::Alias'));
    expect(aliases).toHaveLength(functionCount);
    for (const alias of aliases) expect(alias.Properties).toMatchObject({ Name: 'live', FunctionVersion: { 'Fn::GetAtt': [expect.stringContaining('CurrentVersion'), 'Version'] } });
    // ANY answers 405 from a mock; every other method invokes a function's live alias.
    for (const method of (Object.values(deployed.parent.findResources('AWS::ApiGateway::Method')) as Resource[]).filter((candidate) => candidate.Properties.HttpMethod !== 'ANY')) {
      expect(JSON.stringify(method.Properties.Integration.Uri)).toMatch(/Live/);
    }
  });

  it('shifts 10 % for 5 minutes, then all, and rolls back on the function’s alarms and the API’s 5xx rate', () => {
    const groups = Object.values(deployed.resources('AWS::CodeDeploy::DeploymentGroup'));
    expect(groups).toHaveLength(functionCount);
    for (const group of groups) {
      expect(group.Properties.DeploymentConfigName).toMatch(/Canary10Percent5Minutes/);
      expect(group.Properties.AlarmConfiguration.Enabled).toBe(true);
      expect(group.Properties.AlarmConfiguration.Alarms.length).toBeGreaterThanOrEqual(3);
      expect(group.Properties.AutoRollbackConfiguration).toMatchObject({ Enabled: true, Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']) });
    }
  });
});

describe('options by context', () => {
  it('adds a custom domain with a base-path mapping and a DNS record only when configured', () => {
    const withDomain = synth({ domainName: 'api.example.com', certificateArn: 'arn:aws:acm:ap-southeast-2:123456789012:certificate/abc', hostedZoneId: 'Z123', hostedZoneName: 'example.com' });
    withDomain.parent.hasResourceProperties('AWS::ApiGateway::DomainName', { DomainName: 'api.example.com', SecurityPolicy: 'TLS_1_2', EndpointConfiguration: { Types: ['REGIONAL'] } });
    withDomain.parent.resourceCountIs('AWS::ApiGateway::BasePathMapping', 1);
    withDomain.parent.hasResourceProperties('AWS::Route53::RecordSet', { Name: 'api.example.com.', Type: 'A', HostedZoneId: 'Z123' });
    deployed.parent.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    expect(() => synth({ domainName: 'api.example.com' })).toThrow(/missing certificateArn, hostedZoneId, hostedZoneName/);
  });

  it('puts AWS WAF in front of the stage only when configured: the common rule set and a rate per IP', () => {
    const withWaf = synth({ wafRatePerIp: 500 });
    withWaf.parent.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      Rules: Match.arrayWith([
        Match.objectLike({ Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' } } }),
        Match.objectLike({ Action: { Block: {} }, Statement: { RateBasedStatement: { Limit: 500, AggregateKeyType: 'IP' } } }),
      ]),
    });
    withWaf.parent.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    deployed.parent.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(() => synth({ wafRatePerIp: 5 })).toThrow(/wafRatePerIp must be a number from 10/);
  });

  it('sets the stage throttle and the authorizer cache TTL', () => {
    const tuned = synth({ stageRateLimit: 300, stageBurstLimit: 600, authorizerCacheTtl: 60 });
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
    const named = synth({ tableName: 'sales-pipeline-staging' });
    for (const fn of Object.values(named.resources('AWS::Lambda::Function'))) expect(fn.Properties.Environment.Variables.TABLE_NAME).toBe('sales-pipeline-staging');
  });

  it('keeps each function’s resources in the nested stack of its tag, under CloudFormation’s 500', () => {
    for (const template of deployed.templates) expect(Object.keys(template.toJSON().Resources).length).toBeLessThan(500);
    for (const route of routes) expect(Object.keys(deployed.resources('AWS::Lambda::Function')).some((id) => id.startsWith(routeId(route)))).toBe(true);
  });
});

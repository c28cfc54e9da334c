import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction, IVersion } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { DIMENSION, METRIC, METRICS_NAMESPACE, SERVICE_NAME } from '#shared/observability';
import { DYNAMO_ACTIONS, type AuthorizerKind, type DynamoAction } from '#shared/routes/route';

export interface MonitoringProps {
  api: RestApi;
  table: ITableV2;
  alarmEmails: readonly string[];
}

/**
 * What pages and what rolls a canary back, in one place (docs/operations.md explains each alarm). A paging alarm
 * fires when `page.datapoints` of the last `page.periods` one-minute periods breach, a rate counting only minutes with
 * at least `minRequests` answers: one transient error at low traffic pages no one. A rollback alarm only moves an
 * alias back during a canary, and it notifies no one: it judges the new version alone, failing `rollback.failurePercent`
 * of its invocations in `rollback.datapoints` of `rollback.periods` minutes, so one bad minute (a single transient 500
 * at low traffic) does not undo a release, and a release that answers 500 to everything is undone in two.
 */
export const ALARM_THRESHOLDS = {
  page: { datapoints: 3, periods: 5 },
  /** Answers in a minute below which the API's rate and p99 are not judged. */
  minRequests: 20,
  /** Paging: share of API answers that are 5xx. */
  api5xxPercent: 2,
  /** Paging: the API's p99 latency, authorizer and function included (ms). */
  apiP99Ms: 3000,
  /** Paging: DynamoDB throttle events, and system errors, per minute (the SDK retries each three times). */
  dynamoDbThrottles: 1,
  dynamoDbSystemErrors: 1,
  /** Paging: AssumeRoles of the tenant-data role that STS refused or failed (throttled, most likely) per minute. */
  tenantSessionsRefused: 1,
  /** Rollback: a route's p99 handler time (ms) in two minutes in a row. */
  routeP99Ms: 3000,
  /** Rollback: the new version's share (%) of invocations that failed (a 5xx answer, a crash or timeout, an authorizer that could not decide). */
  rollback: { failurePercent: 10, datapoints: 2, periods: 3 },
} as const;

/** A function as its canary sees it: the version CodeDeploy shifts to, through the alias of this name. */
export interface CanaryTarget {
  fn: IFunction;
  version: IVersion;
  aliasName: string;
}

/** What counts as the new version failing: its route's 5xx answers, or its authorizer's failures to decide. */
/**
 * The API operations each granted action is called in, whose system errors page: a write action also within
 * TransactWriteItems, a condition check only there. A Record of every action, so a new one cannot go unwatched.
 */
export const DYNAMO_OPERATIONS: Record<DynamoAction, readonly Operation[]> = {
  GetItem: [Operation.GET_ITEM],
  BatchGetItem: [Operation.BATCH_GET_ITEM],
  Query: [Operation.QUERY],
  PutItem: [Operation.PUT_ITEM, Operation.TRANSACT_WRITE_ITEMS],
  UpdateItem: [Operation.UPDATE_ITEM, Operation.TRANSACT_WRITE_ITEMS],
  DeleteItem: [Operation.DELETE_ITEM, Operation.TRANSACT_WRITE_ITEMS],
  BatchWriteItem: [Operation.BATCH_WRITE_ITEM],
  ConditionCheckItem: [Operation.TRANSACT_WRITE_ITEMS],
};

export type FailureSignal = { operationId: string } | { authorizer: AuthorizerKind };

/** The same operation dimension the functions put on their EMF metrics. */
export const routeLatency = (operationId: string, statistic = 'p99', period = Duration.minutes(5)): Metric =>
  new Metric({ namespace: METRICS_NAMESPACE, metricName: METRIC.latency, dimensionsMap: { service: SERVICE_NAME, [DIMENSION.operation]: operationId }, statistic, period });

/**
 * Paging alarms to an SNS topic (the API's 5xx rate and p99, DynamoDB throttles and system errors), rollback alarms
 * per function for its canary (its errors, throttles and route p99), and a dashboard of the same signals.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly api5xxRate: Alarm;
  readonly apiLatencyP99: Alarm;
  /** The alarms that notify the topic. */
  readonly paging: Alarm[] = [];
  /** The functions' signals for the dashboard, by the stack they are in (a tag's routes, or this stack's functions). */
  private readonly watched = new Map<Stack, { errors: IMetric[]; throttles: IMetric[]; routeP99s: IMetric[] }>();
  private readonly tableSignals: { throttles: IMetric; systemErrors: IMetric; rate: IMetric };
  private readonly api: RestApi;

  constructor(scope: Construct, id: string, { api, table, alarmEmails }: MonitoringProps) {
    super(scope, id);
    this.api = api;
    this.topic = new Topic(this, 'Alarms', { displayName: 'Sales pipeline API alarms', enforceSSL: true });
    for (const email of alarmEmails) this.topic.addSubscription(new EmailSubscription(email));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'Alarm notifications carry alarm names and states, no customer data; CloudWatch alarms cannot publish to a topic under the AWS managed SNS key.',
    });

    const minute = Duration.minutes(1);
    const requests = api.metricCount({ statistic: 'Sum', period: minute });
    const { minRequests } = ALARM_THRESHOLDS;
    const rate = new MathExpression({
      label: '5xx %',
      expression: `IF(requests >= ${minRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { errors: api.metricServerError({ statistic: 'Sum', period: minute }), requests },
      period: minute,
    });
    this.api5xxRate = this.page('Api5xxRate', rate, ALARM_THRESHOLDS.api5xxPercent, `${ALARM_THRESHOLDS.api5xxPercent}% or more of API answers were 5xx in ${this.pageRule} with ${minRequests} answers or more`);
    const p99 = new MathExpression({
      label: 'API p99 (ms)',
      expression: `IF(requests >= ${minRequests}, latency, 0)`,
      usingMetrics: { latency: api.metricLatency({ statistic: 'p99', period: minute }), requests },
      period: minute,
    });
    this.apiLatencyP99 = this.page('ApiLatencyP99', p99, ALARM_THRESHOLDS.apiP99Ms, `The API's p99 latency was ${ALARM_THRESHOLDS.apiP99Ms} ms or more in ${this.pageRule} with ${minRequests} answers or more`);

    const operations = [...new Set(DYNAMO_ACTIONS.flatMap((action) => DYNAMO_OPERATIONS[action]))];
    const throttles = new MathExpression({
      label: 'DynamoDB throttle events',
      expression: 'reads + writes',
      usingMetrics: { reads: table.metric('ReadThrottleEvents', { statistic: 'Sum' }), writes: table.metric('WriteThrottleEvents', { statistic: 'Sum' }) },
      period: minute,
    });
    const systemErrors = table.metricSystemErrorsForOperations({ operations, period: minute });
    this.page('DynamoDbThrottles', throttles, ALARM_THRESHOLDS.dynamoDbThrottles, `DynamoDB throttled reads or writes of the table in ${this.pageRule}`);
    this.page('DynamoDbSystemErrors', systemErrors, ALARM_THRESHOLDS.dynamoDbSystemErrors, `DynamoDB answered requests of the table with system errors (5xx) in ${this.pageRule}`);
    this.tableSignals = { throttles, systemErrors, rate };

    // A keyed request whose organization's session STS would not give answers 503: STS's request quota is the account's
    // (docs/operations.md, "Tenant sessions"), shared by every container's first request of each organization.
    const refusedSessions = new Metric({ namespace: METRICS_NAMESPACE, metricName: METRIC.tenantSessionsRefused, dimensionsMap: { service: SERVICE_NAME }, statistic: 'Sum', period: minute });
    this.page('TenantSessionsRefused', refusedSessions, ALARM_THRESHOLDS.tenantSessionsRefused, `STS refused or failed AssumeRole of the tenant-data role (throttling, most likely) in ${this.pageRule}`);
  }

  private get pageRule(): string {
    return `${ALARM_THRESHOLDS.page.datapoints} of the last ${ALARM_THRESHOLDS.page.periods} minutes`;
  }

  /**
   * The dashboard, once every function is watched: the API's and the table's signals, then a row per stack of functions
   * (a tag's routes; the authorizers), its routes' p99 beside its functions' errors and throttles. CloudWatch takes at
   * most 500 metrics in a widget and 500 widgets in a dashboard (DASHBOARD_LIMITS): a widget per stack stays as small as
   * the stack (CloudFormation's 500 resources hold a stack to some thirty functions), and a stack's functions are split
   * over several rows should one stack ever hold more than `functionsPerWidget`.
   */
  addDashboard(): Dashboard {
    const { throttles, systemErrors, rate } = this.tableSignals;
    const { api } = this;
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${Stack.of(this).stackName}-operations` });
    dashboard.addWidgets(
      new AlarmStatusWidget({ title: 'Paging alarms', alarms: this.paging, width: 24 }),
      new GraphWidget({ title: 'API requests and errors', left: [api.metricCount(), api.metricClientError(), api.metricServerError()], right: [rate], width: 12 }),
      new GraphWidget({ title: 'API latency p50 / p99 (ms)', left: [api.metricLatency({ statistic: 'p50' }), api.metricLatency({ statistic: 'p99' }), api.metricIntegrationLatency({ statistic: 'p99' })], width: 12 }),
      new GraphWidget({ title: 'DynamoDB throttles and system errors', left: [throttles], right: [systemErrors], width: 24 }),
    );
    const { functionsPerWidget } = DASHBOARD_LIMITS;
    // A stack of routes deployed after this one (ApiStack's routeStacks) has its rows on a dashboard of its own: this
    // stack cannot name functions made after it.
    const rootOf = (stack: Stack): Stack => (stack.nestedStackParent ? rootOf(stack.nestedStackParent) : stack);
    const dashboards = new Map<Stack, Dashboard>([[Stack.of(this), dashboard]]);
    const dashboardOf = (stack: Stack): Dashboard => {
      const root = rootOf(stack);
      const made = dashboards.get(root) ?? new Dashboard(root, 'Dashboard', { dashboardName: `${root.stackName}-operations` });
      dashboards.set(root, made);
      return made;
    };
    for (const [stack, { errors, throttles: throttled, routeP99s }] of this.watched) {
      const name = stack !== Stack.of(this) ? (stack.templateOptions.description ?? stack.node.id).replace(/^The /, '') : routeP99s.length ? 'API stack' : 'API stack (authorizers)';
      const parts = Math.max(Math.ceil(errors.length / functionsPerWidget), Math.ceil(routeP99s.length / functionsPerWidget));
      for (let part = 0; part < parts; part++) {
        const title = `${name}${parts > 1 ? ` (${part + 1} of ${parts})` : ''}`;
        const slice = <T>(list: T[]) => list.slice(part * functionsPerWidget, (part + 1) * functionsPerWidget);
        const p99s = slice(routeP99s);
        dashboardOf(stack).addWidgets(
          ...(p99s.length ? [new GraphWidget({ title: `${title}: p99 (ms, handler time)`, left: p99s, width: 12, height: 6 })] : []),
          new GraphWidget({ title: `${title}: Lambda errors and throttles`, left: slice(errors), right: slice(throttled), width: p99s.length ? 12 : 24, height: 6 }),
        );
      }
    }
    return dashboard;
  }

  /** A paging alarm: M of N one-minute periods at or above the threshold, notifying the topic when it fires and recovers. */
  private page(id: string, metric: IMetric, threshold: number, description: string): Alarm {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: ALARM_THRESHOLDS.page.periods,
      datapointsToAlarm: ALARM_THRESHOLDS.page.datapoints,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.paging.push(alarm);
    return alarm;
  }

  /**
   * A function's rollback alarms, made in `scope` (the stack of the function): the new version's failures (below), its
   * throttles in any one minute (Lambda's Throttles by ExecutedVersion through the alias, so the old version's throttles,
   * or another caller's of the bare function, roll no release back), and its route's p99 in two minutes in a row. Its deployment group watches these and
   * nothing else, so a canary is rolled back for its own function's faults only. They notify no one: what pages is the
   * API's rate.
   *
   * Failures are counted of the version being deployed only (Lambda's ExecutedVersion of invocations through the
   * alias, and the `version` dimension of the functions' own counts), as a share of its invocations. A route's function
   * answers a thrown error as a 500 and succeeds, so Lambda's Errors count only its crashes and timeouts: its 5xx
   * answers are the ServerErrors it counts itself. An authorizer refuses a bad key by throwing `Unauthorized`, which
   * Lambda counts as an error too: it counts each refusal itself (AuthorizerRefusals), and Lambda's Errors less those
   * are its failures, whatever their kind (its store failing, a TypeError, an init that fails, a timeout).
   */
  watchFunction(scope: Construct, name: string, { fn, version, aliasName }: CanaryTarget, signal: FailureSignal): Alarm[] {
    const minute = Duration.minutes(1);
    const errors = fn.metricErrors({ period: minute, label: name });
    const throttled = fn.metricThrottles({ period: minute, label: name });
    const watched = this.watchedIn(scope);
    watched.errors.push(errors);
    watched.throttles.push(throttled);
    const rollback = (id: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1, datapointsToAlarm?: number) =>
      new Alarm(scope, id, {
        metric,
        threshold,
        evaluationPeriods,
        datapointsToAlarm,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `Canary rollback only (notifies no one). ${description}`,
      });
    // Lambda's own counts of the invocations the new version ran, through the alias.
    const ofVersion = (metricName: string) =>
      new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { FunctionName: fn.functionName, Resource: `${fn.functionName}:${aliasName}`, ExecutedVersion: version.version }, statistic: 'Sum', period: minute });
    const counted = (metricName: string, dimensions: Record<string, string>) =>
      new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service: SERVICE_NAME, ...dimensions, [DIMENSION.version]: version.version }, statistic: 'Sum', period: minute });
    const failed: { expression: string; usingMetrics: Record<string, IMetric> } =
      'operationId' in signal
        ? { expression: '100 * (FILL(answered5xx, 0) + FILL(crashed, 0)) / invocations', usingMetrics: { answered5xx: counted(METRIC.serverErrors, { [DIMENSION.operation]: signal.operationId }), crashed: ofVersion('Errors') } }
        : {
            // Lambda's errors less the keys refused on purpose: a throw of any other kind, a failed init or a timeout.
            expression: '100 * IF(FILL(crashed, 0) - FILL(refused, 0) > 0, FILL(crashed, 0) - FILL(refused, 0), 0) / invocations',
            usingMetrics: { crashed: ofVersion('Errors'), refused: counted(METRIC.authorizerRefusals, { [DIMENSION.authorizer]: signal.authorizer }) },
          };
    const { failurePercent, datapoints, periods } = ALARM_THRESHOLDS.rollback;
    const failures = new MathExpression({ label: `${name} failed %`, expression: failed.expression, usingMetrics: { ...failed.usingMetrics, invocations: ofVersion('Invocations') }, period: minute });
    const what = 'operationId' in signal ? 'answered 5xx, crashed or timed out' : 'threw, failed its init or timed out (a key it refused is no failure)';
    const alarms = [
      rollback(`${name}Failures`, failures, failurePercent, `${name}: the new version ${what} on ${failurePercent}% or more of its invocations in ${datapoints} of ${periods} minutes`, periods, datapoints),
      rollback(`${name}Throttles`, ofVersion('Throttles').with({ label: `${name} new version throttles` }), 1, `${name}: Lambda throttled invocations of the new version (concurrency limit)`),
    ];
    if ('operationId' in signal) {
      const { operationId } = signal;
      watched.routeP99s.push(routeLatency(operationId).with({ label: operationId }));
      alarms.push(rollback(`${name}LatencyP99`, routeLatency(operationId, 'p99', minute), ALARM_THRESHOLDS.routeP99Ms, `${operationId}: p99 of ${ALARM_THRESHOLDS.routeP99Ms} ms or more two minutes in a row`, 2));
    }
    return alarms;
  }

  private watchedIn(scope: Construct) {
    const stack = Stack.of(scope);
    const watched = this.watched.get(stack) ?? { errors: [], throttles: [], routeP99s: [] };
    this.watched.set(stack, watched);
    return watched;
  }
}

/**
 * CloudWatch's documented quotas for a dashboard (fixed): at most 500 widgets, and 500 metrics in a widget. A row of the
 * dashboard graphs at most `functionsPerWidget` functions, two metrics each (errors and throttles), so far below both.
 */
export const DASHBOARD_LIMITS = { widgets: 500, metricsPerWidget: 500, functionsPerWidget: 50 } as const;

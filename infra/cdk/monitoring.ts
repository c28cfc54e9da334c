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
  type IAlarm,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { DIMENSION, METRIC, METRICS_NAMESPACE, SERVICE_NAME } from '../../shared/observability';

export interface MonitoringProps {
  api: RestApi;
  table: ITableV2;
  alarmEmails: readonly string[];
}

/** Thresholds an on-call engineer can read in one place (docs/operations.md explains each alarm). */
export const ALARM_THRESHOLDS = {
  /** Share of API answers that are 5xx, over 5 minutes. */
  api5xxPercent: 1,
  /** p99 of a route's handler time, three 5-minute periods in a row. */
  routeP99Ms: 3000,
} as const;

/** The same operation dimension the functions put on their EMF metrics. */
export const routeLatency = (operationId: string, statistic = 'p99'): Metric =>
  new Metric({ namespace: METRICS_NAMESPACE, metricName: METRIC.latency, dimensionsMap: { service: SERVICE_NAME, [DIMENSION.operation]: operationId }, statistic, period: Duration.minutes(5) });

/**
 * Alarms to an SNS topic, and a dashboard of the same signals: API 5xx rate and latency, each route's p99,
 * Lambda errors and throttles (per function, also the canary's rollback triggers), DynamoDB throttles and
 * system errors.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly api5xxRate: Alarm;
  private readonly alarms: IAlarm[] = [];
  private readonly functionErrors: IMetric[] = [];
  private readonly functionThrottles: IMetric[] = [];
  private readonly routeP99s: IMetric[] = [];
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

    const rate = new MathExpression({
      label: '5xx %',
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: { errors: api.metricServerError({ statistic: 'Sum' }), requests: api.metricCount({ statistic: 'Sum' }) },
      period: Duration.minutes(5),
    });
    this.api5xxRate = this.alarm('Api5xxRate', rate, ALARM_THRESHOLDS.api5xxPercent, 'More than 1% of API answers were 5xx for 5 minutes');

    const operations = [Operation.GET_ITEM, Operation.QUERY, Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.TRANSACT_WRITE_ITEMS, Operation.BATCH_GET_ITEM];
    const throttles = new MathExpression({
      label: 'DynamoDB throttle events',
      expression: 'reads + writes',
      usingMetrics: { reads: table.metric('ReadThrottleEvents', { statistic: 'Sum' }), writes: table.metric('WriteThrottleEvents', { statistic: 'Sum' }) },
      period: Duration.minutes(1),
    });
    const systemErrors = table.metricSystemErrorsForOperations({ operations, period: Duration.minutes(1) });
    this.alarm('DynamoDbThrottles', throttles, 1, 'DynamoDB throttled reads or writes of the table');
    this.alarm('DynamoDbSystemErrors', systemErrors, 1, 'DynamoDB answered requests of the table with system errors (5xx)');
    this.tableSignals = { throttles, systemErrors, rate };

  }

  /** The dashboard, once every function is watched. */
  addDashboard(): Dashboard {
    const { throttles, systemErrors, rate } = this.tableSignals;
    const { api } = this;
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${Stack.of(this).stackName}-operations` });
    dashboard.addWidgets(
      new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }),
      new GraphWidget({ title: 'API requests and errors', left: [api.metricCount(), api.metricClientError(), api.metricServerError()], right: [rate], width: 12 }),
      new GraphWidget({ title: 'API latency p50 / p99 (ms)', left: [api.metricLatency({ statistic: 'p50' }), api.metricLatency({ statistic: 'p99' }), api.metricIntegrationLatency({ statistic: 'p99' })], width: 12 }),
      new GraphWidget({ title: 'Route p99 (ms, handler time)', left: this.routeP99s, width: 12, height: 8 }),
      new GraphWidget({ title: 'Lambda errors and throttles', left: this.functionErrors, right: this.functionThrottles, width: 12, height: 8 }),
      new GraphWidget({ title: 'DynamoDB throttles and system errors', left: [throttles], right: [systemErrors], width: 24 }),
    );
    return dashboard;
  }

  /** An alarm that notifies the topic and shows on the dashboard; made in `scope` (the stack of what it watches). */
  alarm(id: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1, scope: Construct = this): Alarm {
    const alarm = new Alarm(scope, id, {
      metric,
      threshold,
      evaluationPeriods,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
    return alarm;
  }

  /** A function's own alarms (its errors and throttles, and its route's p99), which also roll back its canary. */
  watchFunction(scope: Construct, name: string, fn: IFunction, operationId?: string): Alarm[] {
    const errors = fn.metricErrors({ period: Duration.minutes(1), label: name });
    const throttled = fn.metricThrottles({ period: Duration.minutes(1), label: name });
    this.functionErrors.push(errors);
    this.functionThrottles.push(throttled);
    const alarms = [
      this.alarm(`${name}Errors`, errors, 1, `${name}: the function failed (an unhandled error or a timeout)`, 1, scope),
      this.alarm(`${name}Throttles`, throttled, 1, `${name}: Lambda throttled invocations (concurrency limit)`, 1, scope),
    ];
    if (operationId) {
      const p99 = routeLatency(operationId);
      this.routeP99s.push(p99.with({ label: operationId }));
      alarms.push(this.alarm(`${name}LatencyP99`, p99, ALARM_THRESHOLDS.routeP99Ms, `${operationId}: p99 above ${ALARM_THRESHOLDS.routeP99Ms} ms for 15 minutes`, 3, scope));
    }
    return alarms;
  }
}

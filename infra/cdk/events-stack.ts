import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Tracing } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { CHANNELS, routes, SCHEDULED_JOBS, WORKERS } from '../../functions/resources';
import type { ChannelDefinition, WorkerDefinition } from '#shared/resource';
import type { DeploymentOptions } from './options';
import { ServiceFunction } from './service-function';
import { streamArnParameterName } from './data-stack';
import { alarmOnErrors, alarmOnLate, alarmOnMissing, alarmOnWaiting, makeChannels } from './events/channels';
import { TenantDataRole } from './tenant-data-role';
import { sessionCapabilitiesOf, sharedPartitionsOf } from '#shared/tenancy/policies';
import { capabilityContext } from './capabilities';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#shared/observability';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { addWorker, type WorkerWiring } from './events/workers';

export { STREAM_RETRIES } from './events/workers';

export interface EventsStackProps extends StackProps {
  options: DeploymentOptions;
  /** The functions that answer no route: the resource list's unless told. */
  workers?: readonly WorkerDefinition[];
  /** The queues and topics they are wired to: the resource list's unless told. */
  channels?: readonly ChannelDefinition[];
}

/**
 * What happens after a change commits, and what answers no route: each worker of the resource list (WORKERS) wired to
 * its trigger, the table's stream, or a queue or topic the resources declare (CHANNELS), with a dead-letter queue for
 * each; and the scheduled jobs.
 * Alarms go to their own topic.
 */
export class EventsStack extends Stack {
  /** Each worker's function, by its name. */
  readonly workers = new Map<string, ServiceFunction>();
  readonly scheduled: ServiceFunction[];
  /** The role keyed routes' calls are signed with, per organization (docs/decisions/tenancy.md). */
  readonly tenantData: TenantDataRole;

  constructor(scope: Construct, id: string, { options, workers = WORKERS, channels: declared = CHANNELS, ...props }: EventsStackProps) {
    super(scope, id, props);
    // The table by name and its stream by the data stack's SSM parameter, resolved at deploy: no cross-stack export,
    // so the data stack stays free to change its table (a redeploy of this stack picks up a new stream).
    const table = TableV2.fromTableAttributes(this, 'Table', {
      tableName: options.tableName,
      tableStreamArn: StringParameter.valueForStringParameter(this, streamArnParameterName(options.tableName)),
    });
    // Traced only as part of a sampled API request (a delivery it queued carries its trace header): active tracing
    // would have Lambda trace nearly every stream batch, receipt and schedule at low traffic, whatever the API's
    // traceSampleRate, as Lambda's sampling cannot be configured. Stream batches, SNS notifications and schedules bring
    // no trace header, so they are not traced.
    const defaults = { table, logLevel: options.logLevel, debugSampleRate: options.debugSampleRate, architecture: options.architecture, tracing: Tracing.PASS_THROUGH };
    const alarms = new Topic(this, 'Alarms', { displayName: 'Sales pipeline events alarms', enforceSSL: true });
    for (const email of options.alarmEmails) alarms.addSubscription(new EmailSubscription(email));
    const channels = makeChannels(this, options, declared);
    const wiring: WorkerWiring = { table, options, channels, defaults, alarms, watched: [] };
    for (const worker of workers) this.workers.set(worker.name, addWorker(this, worker, wiring));
    // Made here, deployed before the API stack, which finds it by name (tenantDataAccessIn).
    this.tenantData = new TenantDataRole(this, 'TenantData', { table, where: capabilityContext(this, options), sharedPartitions: sharedPartitionsOf(routes), capabilities: sessionCapabilitiesOf(routes) });
    this.scheduled = this.addScheduledJobs(defaults, alarms);
    for (const channel of channels.queues.values()) wiring.watched.push({ queue: channel.deadLetters, ...channel.deadLettersAlarm });
    for (const { queue, id, what } of wiring.watched) alarmOnWaiting(this, queue, id, what, alarms);
    // A worker's queue pages when its oldest message waits longer than its consumer keeps up with.
    for (const channel of channels.queues.values()) alarmOnLate(this, channel, alarms);
    for (const { schedules } of channels.queues.values()) if (schedules) alarmOnWaiting(this, schedules.deadLetters, schedules.deadLettersAlarm.id, schedules.deadLettersAlarm.what, alarms);
    for (const queue of new Set([...channels.queues.values()].flatMap((channel) => [channel.queue, channel.deadLetters]).concat(wiring.watched.map(({ queue }) => queue)))) {
      Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'A dead-letter queue, or a queue with its own dead-letter queue.' });
    }
    for (const topic of [...channels.topics.values(), alarms]) {
      Validations.of(topic).acknowledge({ id: 'AwsSolutions-SNS2', reason: 'SSE with the AWS managed key would keep End User Messaging and CloudWatch from publishing; the topics are reachable only by those services and this stack’s functions.' });
    }
  }

  /** Jobs on a clock (the resources' `jobs`), each its function, its EventBridge schedule and an alarm on its failures. */
  private addScheduledJobs(defaults: WorkerWiring['defaults'], alarms: Topic): ServiceFunction[] {
    return SCHEDULED_JOBS.map(({ name, handler, everyMinutes, dynamodb, indexes, keys, signsAsTenant, expects }) => {
      const job = new ServiceFunction(this, name, { ...defaults, handler, dynamodb, indexes, keys, timeout: Duration.seconds(60), tenantData: signsAsTenant ? this.tenantData.access : undefined });
      new Rule(this, `${name}Schedule`, { schedule: Schedule.rate(Duration.minutes(everyMinutes)), targets: [new LambdaFunction(job.function, { retryAttempts: 0 })] });
      alarmOnErrors(this, job.function, `${name}Failing`, `The scheduled job ${name} (${handler}) failed in three 5-minute periods in a row.`, alarms);
      if (expects) alarmOnMissing(this, `${name}Missing`, expects.what, new Metric({ namespace: METRICS_NAMESPACE, metricName: expects.metric, dimensionsMap: { service: SERVICE_NAME }, statistic: 'Sum', period: Duration.minutes(everyMinutes) }), 3, alarms);
      return job;
    });
  }

}

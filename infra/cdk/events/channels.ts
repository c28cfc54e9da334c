import { CfnOutput, Duration, type Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { ChannelDefinition, QueueChannelDefinition, TopicChannelDefinition } from '#shared/resource';
import type { Construct } from 'constructs';
import type { DeploymentOptions } from '../options';
import { makeQueueSchedules, type QueueSchedules } from './schedules';

/** A job carries its event whole: a record and its previous values may pass 256 KB, so every queue takes SQS's largest, 1 MiB. */
export const queueDefaults = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, maxMessageSizeBytes: 1_048_576 };

/** A queue a worker takes from or sends to: the settings a function needs to send to it, and its consumer's batch. */
export interface QueueChannel {
  queue: Queue;
  deadLetters: Queue;
  /** What a function that sends to it reads: its URL and its dead-letter queue's. */
  environment: Record<string, string>;
  batchSize: number;
  /** Its consumer's timeout, for a whole batch. */
  functionTimeout: Duration;
  /** The alarm on its dead letters: its construct id and what a message there means. */
  deadLettersAlarm: { id: string; what: string };
  /** The one-time schedules that send to it too, when it declares them. */
  schedules?: QueueSchedules;
  /** The alarm on the age of its oldest message: its construct id, its threshold and what it means. */
  lateAlarm: { id: string; thresholdSeconds: number; what: string };
}

/** What the workers are wired to, by the names their triggers give. */
export interface Channels {
  queues: ReadonlyMap<string, QueueChannel>;
  topics: ReadonlyMap<string, Topic>;
}

/**
 * The longest its senders delay a queue's message (SendMessage's DelaySeconds): a webhook retry waits out its backoff
 * in the queue, up to SQS's 15 minutes (functions/webhooks/sqs-queue.ts); a step is sent when due, its wait kept by
 * its schedule.
 */
export const SENDER_DELAY_SECONDS: Readonly<Record<string, number>> = { deliveries: 900 };

/**
 * How old a queue's oldest message may grow before it pages: more than any one message shows while its consumer keeps
 * up. SQS stops counting a message in ApproximateAgeOfOldestMessage after its third receive, so a message that fails
 * is counted for at most two visibility timeouts, after its senders' longest delay; past that, rounded up to whole
 * 5 minutes, messages wait because the consumer is not draining the queue (throttled, failing or outpaced).
 */
export const lateAfterSeconds = (channel: Pick<QueueChannelDefinition, 'name' | 'visibilityTimeoutSeconds'>): number =>
  Math.ceil((2 * channel.visibilityTimeoutSeconds + (SENDER_DELAY_SECONDS[channel.name] ?? 0) + 1) / 300) * 300;

/** A declared queue with its dead letters. */
function makeQueue(stack: Stack, channel: QueueChannelDefinition, tableName: string): QueueChannel {
  const dead = channel.deadLetters;
  const deadLetters = new Queue(stack, dead.id, { ...queueDefaults, queueName: dead.queueName(tableName), retentionPeriod: Duration.days(dead.retentionDays) });
  const queue = new Queue(stack, channel.id, {
    ...queueDefaults,
    queueName: channel.queueName(tableName),
    retentionPeriod: Duration.days(channel.retentionDays),
    visibilityTimeout: Duration.seconds(channel.visibilityTimeoutSeconds),
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: dead.maxReceiveCount },
  });
  const environment = { [channel.environment.queueUrl]: queue.queueUrl, [channel.environment.deadLettersUrl]: deadLetters.queueUrl };
  const schedules = channel.schedules && makeQueueSchedules(stack, channel.id, queue, channel.schedules, tableName);
  const thresholdSeconds = lateAfterSeconds(channel);
  const lateAlarm = {
    id: `${channel.id}Late`,
    thresholdSeconds,
    what: `The oldest ${channel.local.what} waiting in the ${channel.queueName(tableName)} queue is more than ${thresholdSeconds / 60} minutes old: its consumer is not keeping up (throttled, failing, or outpaced by a burst). docs/operations.md says what to look at.`,
  };
  return { queue, deadLetters, environment, batchSize: channel.batchSize, functionTimeout: Duration.seconds(channel.functionTimeoutSeconds), deadLettersAlarm: dead.alarm, schedules, lateAlarm };
}

/** A declared topic its service publishes to, from this account only, with the configuration set and output it declares. */
function makeTopic(stack: Stack, channel: TopicChannelDefinition, tableName: string): Topic {
  const topic = new Topic(stack, channel.id, { displayName: channel.displayName, enforceSSL: true });
  topic.addToResourcePolicy(
    new PolicyStatement({ actions: ['sns:Publish'], principals: [new ServicePrincipal(channel.publishedBy)], resources: [topic.topicArn], conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
  );
  const set = channel.configurationSet;
  if (set) {
    new CfnConfigurationSet(stack, set.id, {
      configurationSetName: set.name(tableName),
      eventDestinations: [{ eventDestinationName: set.destination, enabled: true, matchingEventTypes: [...set.eventTypes], snsDestination: { topicArn: topic.topicArn } }],
    });
  }
  if (channel.output) new CfnOutput(stack, channel.output.id, { value: topic.topicArn, description: channel.output.description });
  return topic;
}

/** The queues and topics the resources declare (CHANNELS), which the workers are wired to by name. */
export function makeChannels(stack: Stack, options: DeploymentOptions, declared: readonly ChannelDefinition[]): Channels {
  const queues = new Map<string, QueueChannel>();
  const topics = new Map<string, Topic>();
  for (const channel of declared) {
    if (queues.has(channel.name) || topics.has(channel.name)) throw new Error(`Two channels named ${channel.name} (functions/resources.ts)`);
    if (channel.kind === 'queue') queues.set(channel.name, makeQueue(stack, channel, options.tableName));
    else topics.set(channel.name, makeTopic(stack, channel, options.tableName));
  }
  return { queues, topics };
}

/** Pages when a metric is above zero in `periods` 5-minute periods in a row. */
function pageAboveZero(scope: Construct, id: string, what: string, metric: IMetric, periods: number, alarms: Topic): void {
  const alarm = new Alarm(scope, id, { alarmDescription: what, metric, threshold: 0, comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: periods, treatMissingData: TreatMissingData.NOT_BREACHING });
  alarm.addAlarmAction(new SnsAction(alarms));
}

/** Pages when `periods` periods in a row pass without the metric counting anything (a proof that stopped, or never came). */
export function alarmOnMissing(scope: Construct, id: string, what: string, metric: IMetric, periods: number, alarms: Topic): void {
  const alarm = new Alarm(scope, id, { alarmDescription: what, metric, threshold: 1, comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD, evaluationPeriods: periods, treatMissingData: TreatMissingData.BREACHING });
  alarm.addAlarmAction(new SnsAction(alarms));
}

/** Pages when anything waits in a queue of what could not be handled (a dead-letter or failures queue). */
export function alarmOnWaiting(scope: Construct, queue: Queue, id: string, what: string, alarms: Topic): void {
  pageAboveZero(scope, id, what, queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }), 1, alarms);
}

/** Pages when the oldest message of a queue its worker takes from is older than the channel's threshold in a 5-minute period. */
export function alarmOnLate(scope: Construct, { queue, lateAlarm }: QueueChannel, alarms: Topic): void {
  const alarm = new Alarm(scope, lateAlarm.id, {
    alarmDescription: lateAlarm.what,
    metric: queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
    threshold: lateAlarm.thresholdSeconds,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(new SnsAction(alarms));
}

/** Pages when a function fails in three 5-minute periods in a row. */
export function alarmOnErrors(scope: Construct, fn: IFunction, id: string, what: string, alarms: Topic): void {
  pageAboveZero(scope, id, what, fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }), 3, alarms);
}

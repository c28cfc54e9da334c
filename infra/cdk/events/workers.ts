import { Duration, type Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SnsEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { WorkerDefinition } from '#shared/resource';
import type { DeploymentOptions } from '../options';
import { ServiceFunction, type ServiceFunctionProps } from '../service-function';
import { capabilityContext, capabilityEnvironment, grantCapabilities } from '../capabilities';
import { alarmOnErrors, queueDefaults, type Channels, type QueueChannel } from './channels';
import { grantScheduling } from './schedules';

/**
 * How long a failing stream record is retried before it is parked in its consumer's failures queue (docs/operations.md): ten
 * retries, and never past six hours of age. The age also parks records that merely wait that long behind a backlog,
 * so it is far beyond the 5 minutes of lag that page (StreamFallingBehind).
 */
export const STREAM_RETRIES = { attempts: 10, maxRecordAge: Duration.hours(6) } as const;

export interface WorkerWiring {
  table: ITableV2;
  options: DeploymentOptions;
  channels: Channels;
  /** What every function of the stack shares (the table, logging, architecture, tracing). */
  defaults: Omit<ServiceFunctionProps, 'handler' | 'dynamodb'>;
  /** Where the alarms of what a worker could not take notify. */
  alarms: Topic;
  /** The queues the stack's dead-letter alarms watch, each with what its messages mean; every worker adds its own. */
  watched: { queue: Queue; id: string; what: string }[];
}

/** A queue by the name a worker gives, or the synth stops naming it. */
function queueNamed(channels: Channels, name: string): QueueChannel {
  const channel = channels.queues.get(name);
  if (!channel) throw new Error(`No queue ${name} in the events stack (no resource's channels name it: functions/resources.ts)`);
  return channel;
}

/**
 * The table's stream: in order per item, partial batches, and a record that keeps failing parked in the worker's
 * failures queue, which pages, as does the worker falling behind.
 */
function takeFromStream(stack: Stack, fn: ServiceFunction, worker: WorkerDefinition, { table, alarms, watched }: WorkerWiring): void {
  if (worker.trigger.kind !== 'stream') return;
  const { failures: parked, lag, entities } = worker.trigger;
  const failures = new Queue(stack, parked.name, { ...queueDefaults, retentionPeriod: Duration.days(14) });
  fn.function.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      maxBatchingWindow: Duration.seconds(1),
      // The handler answers the first record that failed (functions/stream/in-order.ts): the records before it are
      // checkpointed and never handed again; with bisection, a record that keeps failing ends up alone.
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      parallelizationFactor: worker.trigger.parallelization,
      // A record passes when its item's entity, new or (for a delete) old, is one the worker reads: two patterns, either.
      filters: entities && (['NewImage', 'OldImage'] as const).map((image) => FilterCriteria.filter({ dynamodb: { [image]: { entity: { S: FilterRule.or(...entities) } } } })),
      retryAttempts: STREAM_RETRIES.attempts,
      // A record older than this goes to the failures queue rather than hold its shard for the stream's 24 hours.
      maxRecordAge: STREAM_RETRIES.maxRecordAge,
      onFailure: new SqsDlq(failures),
    }),
  );
  watched.push({ queue: failures, id: `${parked.name}Waiting`, what: `${parked.meaning}. docs/operations.md says how to replay them.` });
  new Alarm(stack, lag.id, {
    alarmDescription: lag.meaning,
    metric: fn.function.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
    threshold: 300_000,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  }).addAlarmAction(new SnsAction(alarms));
  // Its reserved concurrency is its ceiling: a throttled batch is retried, its shard held behind it, long before the
  // lag reaches 5 minutes. Throttles in two 5-minute periods in a row page (docs/operations.md).
  new Alarm(stack, `${worker.name}Throttled`, {
    alarmDescription: `${worker.name} was throttled at its reserved concurrency (streamConcurrency): the stream's records wait behind each throttled batch.`,
    metric: fn.function.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  }).addAlarmAction(new SnsAction(alarms));
}

/**
 * SNS invokes a topic's worker asynchronously: without a failure queue, a notification that failed Lambda's two
 * retries, or that SNS could not hand to Lambda at all, would be dropped. Each worker's go to its own queue, which
 * pages; docs/operations.md says how to replay them.
 */
function takeFromTopic(stack: Stack, fn: ServiceFunction, worker: WorkerDefinition, topic: Topic, { watched }: WorkerWiring): void {
  if (worker.trigger.kind !== 'topic') return;
  const { name, meaning } = worker.trigger.failures;
  const failures = new Queue(stack, name, { ...queueDefaults, retentionPeriod: Duration.days(14) });
  fn.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(failures) });
  fn.function.addEventSource(new SnsEventSource(topic, { deadLetterQueue: failures }));
  watched.push({ queue: failures, id: `${name}Waiting`, what: `${meaning}: the ${worker.name} function failed every retry, or SNS could not invoke it. docs/operations.md says how to replay them.` });
}

/** What a worker's function is given by its trigger: a stream consumer's ceiling, a queue consumer's batch time. */
function triggerSettings(worker: WorkerDefinition, { options, channels }: WorkerWiring): Partial<ServiceFunctionProps> {
  if (worker.trigger.kind === 'stream') return { timeout: Duration.seconds(60), reservedConcurrency: options.concurrency.streamConsumer };
  if (worker.trigger.kind === 'queue') return { timeout: queueNamed(channels, worker.trigger.queue).functionTimeout };
  return {};
}

/**
 * A worker's function, wired to its trigger, with the settings of and grants to send to the queues it uses. A stream
 * consumer gets a ceiling on its share of the account (one invocation per shard at a time), kept for it alone; a queue
 * consumer starts at most this many deliveries at once however long the queue, so a backlog of slow receivers cannot
 * take the account's concurrency from the API.
 */
export function addWorker(stack: Stack, worker: WorkerDefinition, wiring: WorkerWiring): ServiceFunction {
  const { trigger } = worker;
  const consumed = trigger.kind === 'queue' ? [queueNamed(wiring.channels, trigger.queue)] : [];
  const sendsTo = (worker.sendsTo ?? []).map((name) => queueNamed(wiring.channels, name));
  const where = capabilityContext(stack, wiring.options);
  const fn = new ServiceFunction(stack, worker.name, {
    ...wiring.defaults,
    ...triggerSettings(worker, wiring),
    handler: worker.handler,
    dynamodb: worker.dynamodb,
    indexes: worker.indexes,
    keys: worker.keys,
    environment: Object.assign(
      {},
      ...[...consumed, ...sendsTo].map((channel) => channel.environment),
      ...consumed.map((channel) => channel.schedules?.environment ?? {}),
      capabilityEnvironment(worker.capabilities ?? [], where),
    ),
  });
  grantCapabilities(fn, worker.capabilities ?? [], where);
  if (worker.errorsAlarm) alarmOnErrors(stack, fn.function, worker.errorsAlarm.id, worker.errorsAlarm.meaning, wiring.alarms);
  if (trigger.kind === 'stream') takeFromStream(stack, fn, worker, wiring);
  for (const channel of consumed) {
    fn.function.addEventSource(new SqsEventSource(channel.queue, { batchSize: channel.batchSize, reportBatchItemFailures: true, maxConcurrency: wiring.options.concurrency.deliveries }));
    // A failed attempt's retry goes back to its queue; a job past its retries to the dead letters.
    channel.queue.grantSendMessages(fn.function);
    channel.deadLetters.grantSendMessages(fn.function);
    if (channel.schedules) grantScheduling(fn, channel.schedules);
  }
  if (trigger.kind === 'topic') {
    const topic = wiring.channels.topics.get(trigger.topic);
    if (!topic) throw new Error(`No topic ${trigger.topic} in the events stack (no resource's channels name it: functions/resources.ts)`);
    takeFromTopic(stack, fn, worker, topic, wiring);
  }
  for (const channel of sendsTo) channel.queue.grantSendMessages(fn.function);
  return fn;
}

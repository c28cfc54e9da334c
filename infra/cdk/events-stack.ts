import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { StartingPosition, Tracing } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SnsEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { CfnConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { RECEIPT_EVENT_TYPES } from '../../functions/sms/receipt-types';
import { WEBHOOK_LIMITS } from '../../functions/webhooks/limits';
import { SCHEDULED_JOBS, WORKER_HANDLERS } from '../../functions/resources';
import type { DeploymentOptions } from './options';
import { ServiceFunction } from './service-function';
import { streamArnParameterName } from './data-stack';

export interface EventsStackProps extends StackProps {
  options: DeploymentOptions;
}

/** The SMS configuration set's name: the SMS-sending function names it without a cross-stack reference. */
export const smsConfigurationSetName = (tableName: string) => `${tableName}-sms`;

/**
 * How long a failing stream record is retried before it is parked in StreamFailures (docs/operations.md): ten
 * retries, and never past six hours of age. The age also parks records that merely wait that long behind a backlog,
 * so it is far beyond the 5 minutes of lag that page (StreamFallingBehind).
 */
export const STREAM_RETRIES = { attempts: 10, maxRecordAge: Duration.hours(6) } as const;

/** The webhook delivery queues' names: API functions that queue a delivery (a redelivery) name them the same way. */
export const deliveryQueueNames = (tableName: string) => ({ queue: `${tableName}-webhook-deliveries`, deadLetters: `${tableName}-webhook-dead-letters` });

/**
 * The delivery function's batch and the time it is given: every message of a batch may wait out the receiver's
 * full timeout, and each also reads the subscription, records its attempt, marks the subscription and queues its
 * retry (a GetItem, a PutItem, an UpdateItem, an SQS send: milliseconds, but the margin lets one call time out and
 * be retried). A function timing out fails its whole batch, so the attempts already made would be made again. The
 * queue hides a received message for six times the function's timeout, as Lambda advises for SQS sources.
 */
export const DELIVERY_BATCH = (() => {
  const size = 3;
  const marginPerMessageMs = 5_000;
  const functionTimeout = Duration.seconds(Math.ceil((size * (WEBHOOK_LIMITS.timeoutMs + marginPerMessageMs)) / 1000));
  return { size, functionTimeout, visibilityTimeout: Duration.seconds(6 * functionTimeout.toSeconds()) };
})();

/**
 * What happens after a change commits: the table's stream → events (recorded, and queued for webhook
 * subscriptions) → the delivery queue and its function, with a dead-letter queue for each; and the SMS
 * configuration set whose delivery receipts come back through SNS. Alarms go to their own topic.
 */
export class EventsStack extends Stack {
  readonly recordEvents: ServiceFunction;
  readonly deliverWebhooks: ServiceFunction;
  readonly smsReceipts: ServiceFunction;
  readonly inboundSms: ServiceFunction;
  readonly scheduled: ServiceFunction[];
  readonly deliveryQueue: Queue;
  readonly deliveryDeadLetters: Queue;
  /** What the SMS functions could not take: notifications SNS could not deliver, and invocations that failed every retry. */
  readonly smsReceiptFailures: Queue;
  readonly smsReplyFailures: Queue;

  constructor(scope: Construct, id: string, { options, ...props }: EventsStackProps) {
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
    // A job carries its event whole: a record and its previous values may pass 256 KB, SQS's limit before 1 MiB.
    const queueDefaults = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, maxMessageSizeBytes: WEBHOOK_LIMITS.maxJobBytes };

    // Jobs whose retries ran out 24 hours after the first attempt, and messages the function failed on five times.
    const queueNames = deliveryQueueNames(options.tableName);
    this.deliveryDeadLetters = new Queue(this, 'DeliveryDeadLetters', { ...queueDefaults, queueName: queueNames.deadLetters, retentionPeriod: Duration.days(14) });
    this.deliveryQueue = new Queue(this, 'Deliveries', {
      ...queueDefaults,
      queueName: queueNames.queue,
      // A job lives minutes here (its delay, then at most five receives); a week outlasts an outage of the delivery
      // function, after which jobs past their 24 hours are dead-lettered with a reason rather than expire unseen. Less
      // than the dead letters' 14 days, as a redriven message keeps its first enqueue time.
      retentionPeriod: Duration.days(7),
      visibilityTimeout: DELIVERY_BATCH.visibilityTimeout,
      deadLetterQueue: { queue: this.deliveryDeadLetters, maxReceiveCount: 5 },
    });
    const queueEnvironment = { WEBHOOK_QUEUE_URL: this.deliveryQueue.queueUrl, WEBHOOK_DLQ_URL: this.deliveryDeadLetters.queueUrl };

    // Stream batches that failed every retry: their events are missing until replayed from here.
    const streamFailures = new Queue(this, 'StreamFailures', { ...queueDefaults, retentionPeriod: Duration.days(14) });
    this.recordEvents = new ServiceFunction(this, 'RecordEvents', {
      ...defaults,
      handler: WORKER_HANDLERS.recordEvents,
      // Events are put in batches; subscriptions are read by Query.
      dynamodb: ['BatchWriteItem', 'Query'],
      environment: queueEnvironment,
      timeout: Duration.seconds(60),
      // A ceiling on its share of the account (one invocation per shard at a time), kept for it alone.
      reservedConcurrency: options.concurrency.streamConsumer,
    });
    this.recordEvents.function.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        // The handler answers the first record that failed (functions/stream/in-order.ts): the records before it are
        // checkpointed and never handed again; with bisection, a record that keeps failing ends up alone.
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRIES.attempts,
        // A record older than this goes to StreamFailures rather than hold its shard for the stream's 24 hours.
        maxRecordAge: STREAM_RETRIES.maxRecordAge,
        onFailure: new SqsDlq(streamFailures),
      }),
    );
    this.deliveryQueue.grantSendMessages(this.recordEvents.function);

    this.deliverWebhooks = new ServiceFunction(this, 'DeliverWebhooks', {
      ...defaults,
      handler: WORKER_HANDLERS.deliverWebhooks,
      // Reads the subscription, records the attempt, marks or disables the subscription.
      dynamodb: ['GetItem', 'PutItem', 'UpdateItem'],
      environment: queueEnvironment,
      timeout: DELIVERY_BATCH.functionTimeout,
    });
    this.deliverWebhooks.function.addEventSource(
      // At most this many deliveries at once, however long the queue: a backlog of slow receivers cannot take the
      // account's concurrency from the API.
      new SqsEventSource(this.deliveryQueue, { batchSize: DELIVERY_BATCH.size, reportBatchItemFailures: true, maxConcurrency: options.concurrency.deliveries }),
    );
    this.deliveryQueue.grantSendMessages(this.deliverWebhooks.function);
    this.deliveryDeadLetters.grantSendMessages(this.deliverWebhooks.function);

    // SMS delivery receipts: the configuration set's events → SNS → a function that moves each message's status.
    const smsEvents = new Topic(this, 'SmsEvents', { displayName: 'SMS delivery receipts', enforceSSL: true });
    smsEvents.addToResourcePolicy(
      new PolicyStatement({ actions: ['sns:Publish'], principals: [new ServicePrincipal('sms-voice.amazonaws.com')], resources: [smsEvents.topicArn], conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
    );
    new CfnConfigurationSet(this, 'SmsConfigurationSet', {
      configurationSetName: smsConfigurationSetName(options.tableName),
      eventDestinations: [{ eventDestinationName: 'receipts', enabled: true, matchingEventTypes: [...RECEIPT_EVENT_TYPES], snsDestination: { topicArn: smsEvents.topicArn } }],
    });
    // SNS invokes the SMS functions asynchronously: without these, a notification that failed Lambda's two retries, or
    // that SNS could not hand to Lambda at all, would be dropped. Each function's go to its own queue, which pages;
    // docs/operations.md says how to replay them.
    const takeFromTopic = (fn: ServiceFunction, topic: Topic, failuresId: string): Queue => {
      const failures = new Queue(this, failuresId, { ...queueDefaults, retentionPeriod: Duration.days(14) });
      fn.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(failures) });
      fn.function.addEventSource(new SnsEventSource(topic, { deadLetterQueue: failures }));
      return failures;
    };
    this.smsReceipts = new ServiceFunction(this, 'SmsReceipts', { ...defaults, handler: WORKER_HANDLERS.smsReceipts, dynamodb: ['UpdateItem'] });
    this.smsReceiptFailures = takeFromTopic(this.smsReceipts, smsEvents, 'SmsReceiptFailures');

    // Replies from leads: point each phone number's two-way channel at this topic (the InboundSmsTopic output).
    const inboundSms = new Topic(this, 'InboundSms', { displayName: 'SMS replies from leads', enforceSSL: true });
    inboundSms.addToResourcePolicy(
      new PolicyStatement({ actions: ['sns:Publish'], principals: [new ServicePrincipal('sms-voice.amazonaws.com')], resources: [inboundSms.topicArn], conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
    );
    this.inboundSms = new ServiceFunction(this, 'InboundSmsReplies', {
      ...defaults,
      handler: WORKER_HANDLERS.inboundSms,
      // The organization by its number's claim, the lead by its phone's claim, the lead's latest thread (its inquiries,
      // gsi3), then the message and the lead's unread count, or a new SMS inquiry; STOP puts and START deletes the
      // phone's opt-out.
      dynamodb: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
      indexes: ['gsi3'],
    });
    this.smsReplyFailures = takeFromTopic(this.inboundSms, inboundSms, 'SmsReplyFailures');
    new CfnOutput(this, 'InboundSmsTopic', { value: inboundSms.topicArn, description: 'Set as the two-way SMS channel of the organization numbers, so replies reach the inbound function' });

    // Jobs on a clock (infra/schedules.ts), each its function and its EventBridge schedule.
    this.scheduled = SCHEDULED_JOBS.map(({ name, handler, everyMinutes, dynamodb, indexes }) => {
      const job = new ServiceFunction(this, name, { ...defaults, handler, dynamodb, indexes, timeout: Duration.seconds(60) });
      new Rule(this, `${name}Schedule`, { schedule: Schedule.rate(Duration.minutes(everyMinutes)), targets: [new LambdaFunction(job.function, { retryAttempts: 0 })] });
      return job;
    });

    const alarms = new Topic(this, 'Alarms', { displayName: 'Sales pipeline events alarms', enforceSSL: true });
    for (const email of options.alarmEmails) alarms.addSubscription(new EmailSubscription(email));
    const waiting = (queue: Queue, name: string, what: string) =>
      new Alarm(this, name, {
        alarmDescription: what,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new SnsAction(alarms));
    waiting(streamFailures, 'StreamFailuresWaiting', 'Stream batches failed every retry: their events were not recorded or delivered. docs/operations.md says how to replay them.');
    waiting(this.deliveryDeadLetters, 'DeliveryDeadLettersWaiting', 'Webhook deliveries ran out of retries (or failed the function five times).');
    waiting(this.smsReplyFailures, 'SmsReplyFailuresWaiting', 'SMS replies from leads were not recorded: the InboundSmsReplies function failed every retry, or SNS could not invoke it. docs/operations.md says how to replay them.');
    waiting(this.smsReceiptFailures, 'SmsReceiptFailuresWaiting', 'SMS delivery receipts were not applied: the SmsReceipts function failed every retry, or SNS could not invoke it. docs/operations.md says how to replay them.');
    new Alarm(this, 'StreamFallingBehind', {
      alarmDescription: 'Events lag their changes by more than 5 minutes: the stream consumer is failing or too slow.',
      metric: this.recordEvents.function.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 300_000,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(new SnsAction(alarms));

    for (const [index, job] of this.scheduled.entries()) {
      new Alarm(this, `${SCHEDULED_JOBS[index]!.name}Failing`, {
        alarmDescription: `The scheduled job ${SCHEDULED_JOBS[index]!.name} (${SCHEDULED_JOBS[index]!.handler}) failed in three 5-minute periods in a row.`,
        metric: job.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new SnsAction(alarms));
    }

    for (const queue of [this.deliveryQueue, this.deliveryDeadLetters, streamFailures, this.smsReplyFailures, this.smsReceiptFailures]) {
      Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'A dead-letter queue, or a queue with its own dead-letter queue.' });
    }
    for (const topic of [smsEvents, inboundSms, alarms]) {
      Validations.of(topic).acknowledge({ id: 'AwsSolutions-SNS2', reason: 'SSE with the AWS managed key would keep End User Messaging and CloudWatch from publishing; the topics are reachable only by those services and this stack’s functions.' });
    }
  }
}

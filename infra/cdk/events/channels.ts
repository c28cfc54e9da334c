import { CfnOutput, Duration, type Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { smsConfigurationSetName } from '../../../functions/sms/capability';
import { deliveryQueueNames } from '../../../functions/webhooks/capability';
import { RECEIPT_EVENT_TYPES } from '../../../functions/sms/receipt-types';
import { WEBHOOK_LIMITS } from '../../../functions/webhooks/limits';
import type { DeploymentOptions } from '../options';

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

/** A job carries its event whole: a record and its previous values may pass 256 KB, SQS's limit before 1 MiB. */
export const queueDefaults = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, maxMessageSizeBytes: WEBHOOK_LIMITS.maxJobBytes };

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
}

/** What the workers are wired to, by the names their triggers give. */
export interface Channels {
  queues: ReadonlyMap<string, QueueChannel>;
  topics: ReadonlyMap<string, Topic>;
}

/**
 * The webhook delivery queue, with its dead letters: jobs whose retries ran out 24 hours after the first attempt,
 * and messages the function failed on five times.
 */
function deliveryQueue(stack: Stack, tableName: string): QueueChannel {
  const names = deliveryQueueNames(tableName);
  const deadLetters = new Queue(stack, 'DeliveryDeadLetters', { ...queueDefaults, queueName: names.deadLetters, retentionPeriod: Duration.days(14) });
  const queue = new Queue(stack, 'Deliveries', {
    ...queueDefaults,
    queueName: names.queue,
    // A job lives minutes here (its delay, then at most five receives); a week outlasts an outage of the delivery
    // function, after which jobs past their 24 hours are dead-lettered with a reason rather than expire unseen. Less
    // than the dead letters' 14 days, as a redriven message keeps its first enqueue time.
    retentionPeriod: Duration.days(7),
    visibilityTimeout: DELIVERY_BATCH.visibilityTimeout,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: 5 },
  });
  const environment = { WEBHOOK_QUEUE_URL: queue.queueUrl, WEBHOOK_DLQ_URL: deadLetters.queueUrl };
  const deadLettersAlarm = { id: 'DeliveryDeadLettersWaiting', what: 'Webhook deliveries ran out of retries (or failed the function five times).' };
  return { queue, deadLetters, environment, batchSize: DELIVERY_BATCH.size, functionTimeout: DELIVERY_BATCH.functionTimeout, deadLettersAlarm };
}

/** A topic End User Messaging publishes to, from this account only. */
function smsTopic(stack: Stack, id: string, displayName: string): Topic {
  const topic = new Topic(stack, id, { displayName, enforceSSL: true });
  topic.addToResourcePolicy(
    new PolicyStatement({ actions: ['sns:Publish'], principals: [new ServicePrincipal('sms-voice.amazonaws.com')], resources: [topic.topicArn], conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
  );
  return topic;
}

/**
 * The queues and topics the workers are wired to: the webhook delivery queue; SMS delivery receipts (the
 * configuration set's events → SNS); replies from leads (point each phone number's two-way channel at the
 * InboundSmsTopic output).
 */
export function makeChannels(stack: Stack, options: DeploymentOptions): Channels {
  const smsEvents = smsTopic(stack, 'SmsEvents', 'SMS delivery receipts');
  new CfnConfigurationSet(stack, 'SmsConfigurationSet', {
    configurationSetName: smsConfigurationSetName(options.tableName),
    eventDestinations: [{ eventDestinationName: 'receipts', enabled: true, matchingEventTypes: [...RECEIPT_EVENT_TYPES], snsDestination: { topicArn: smsEvents.topicArn } }],
  });
  const inboundSms = smsTopic(stack, 'InboundSms', 'SMS replies from leads');
  new CfnOutput(stack, 'InboundSmsTopic', { value: inboundSms.topicArn, description: 'Set as the two-way SMS channel of the organization numbers, so replies reach the inbound function' });
  return {
    queues: new Map([['deliveries', deliveryQueue(stack, options.tableName)]]),
    topics: new Map([
      ['smsEvents', smsEvents],
      ['inboundSms', inboundSms],
    ]),
  };
}

import type { Capability } from '#shared/routes/route';

/** The webhook delivery queues' names: the events stack makes them, and the functions that queue a delivery name them the same way. */
export const deliveryQueueNames = (tableName: string) => ({ queue: `${tableName}-webhook-deliveries`, deadLetters: `${tableName}-webhook-dead-letters` });

/**
 * Queuing webhook deliveries: the delivery queues' URLs, and SendMessage to the main one (SSE-SQS, so no key to
 * grant); dead-lettering is the delivery worker's alone.
 */
export const deliveryQueueSender: Capability = {
  name: 'deliveryQueueSender',
  reachesOutside: true,
  environment: ({ tableName, region, account, urlSuffix }) => {
    const names = deliveryQueueNames(tableName);
    const url = (name: string) => `https://sqs.${region}.${urlSuffix}/${account}/${name}`;
    return { WEBHOOK_QUEUE_URL: url(names.queue), WEBHOOK_DLQ_URL: url(names.deadLetters) };
  },
  statements: ({ partition, region, account, tableName }) => [
    { actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], resources: [`arn:${partition}:sqs:${region}:${account}:${deliveryQueueNames(tableName).queue}`] },
  ],
};

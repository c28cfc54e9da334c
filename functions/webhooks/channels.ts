import { queueChannel } from '#shared/workers';
import { deliveryQueueNames } from './capability';
import { WEBHOOK_LIMITS } from './limits';
import type { DeliveryJob } from './queue';

/**
 * The delivery function's batch and the time it is given: every message of a batch may wait out the receiver's
 * full timeout, and each also reads the subscription, records its attempt, marks the subscription and queues its
 * retry (a GetItem, a PutItem, an UpdateItem, an SQS send: milliseconds, but the margin lets one call time out and
 * be retried). A function timing out fails its whole batch, so the attempts already made would be made again.
 */
export const DELIVERY_BATCH = (() => {
  const size = 3;
  const marginPerMessageMs = 5_000;
  const functionTimeoutSeconds = Math.ceil((size * (WEBHOOK_LIMITS.timeoutMs + marginPerMessageMs)) / 1000);
  return { size, functionTimeoutSeconds };
})();

/**
 * The webhook delivery queue, with its dead letters: jobs whose retries ran out 24 hours after the first attempt,
 * and messages the function failed on five times. A job lives minutes in the queue (its delay, then at most five
 * receives); a week outlasts an outage of the delivery function, after which jobs past their 24 hours are
 * dead-lettered with a reason rather than expire unseen. Less than the dead letters' 14 days, as a redriven message
 * keeps its first enqueue time. `npm start` hands the in-process queue to the code that queues deliveries.
 */
export const deliveries = queueChannel({
  name: 'deliveries',
  one: 'delivery',
  names: deliveryQueueNames,
  variables: 'WEBHOOK',
  retentionDays: 7,
  batch: DELIVERY_BATCH,
  deadLetters: { retentionDays: 14, maxReceiveCount: 5, meaning: 'Webhook deliveries ran out of retries (or failed the function five times).' },
  local: { install: 'queue#setDeliveryQueue', what: 'webhook delivery', logged: (job: DeliveryJob) => ({ webhookId: job.webhookId, eventId: job.event.id }), followsClock: true },
});

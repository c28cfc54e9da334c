import { eachMessage } from '#shared/queue-batch';
import { deliver } from './delivery';
import type { DeliveryJob } from './queue';

/**
 * The delivery queue's consumer: one attempt per message, the batch's attempts together, so a receiver that hangs
 * does not hold the others of its batch back. A message whose attempt threw (DynamoDB or SQS failing, not the
 * receiver: its failures are outcomes) is reported back, so SQS retries only that one.
 */
export const handler = eachMessage<DeliveryJob>(deliver, 'webhook delivery attempt failed; SQS will retry it');

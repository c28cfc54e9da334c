import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '#shared/observability';
import { deliver } from './delivery';
import type { DeliveryJob } from './queue';

/**
 * The delivery queue's consumer: one attempt per message, the batch's attempts together, so a receiver that hangs
 * does not hold the others of its batch back. A message whose attempt threw (DynamoDB or SQS failing, not the
 * receiver: its failures are outcomes) is reported back, so SQS retries only that one.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failed = await Promise.all(
    event.Records.map((record) =>
      deliver(JSON.parse(record.body) as DeliveryJob).then(
        () => [],
        (error: unknown) => {
          logger.error('webhook delivery attempt failed; SQS will retry it', { error, messageId: record.messageId });
          return [{ itemIdentifier: record.messageId }];
        },
      ),
    ),
  );
  return { batchItemFailures: failed.flat() };
}

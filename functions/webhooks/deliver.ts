import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../../shared/observability';
import { deliver } from './delivery';
import type { DeliveryJob } from '../../shared/webhooks/queue';

/**
 * The delivery queue's consumer: one attempt per message. A message whose attempt threw (DynamoDB or SQS
 * failing, not the receiver: its failures are outcomes) is reported back, so SQS retries only that one.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    await deliver(JSON.parse(record.body) as DeliveryJob).catch((error: unknown) => {
      logger.error('webhook delivery attempt failed; SQS will retry it', { error, messageId: record.messageId });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    });
  }
  return { batchItemFailures };
}

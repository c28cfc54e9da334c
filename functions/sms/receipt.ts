import type { SNSEvent } from 'aws-lambda';
import { logger } from '#shared/observability';
import { applyReceipt } from './receipts';

/** SMS delivery receipts from the configuration set's SNS topic: each moves its message to DELIVERED or FAILED. */
export async function handler(event: SNSEvent): Promise<void> {
  for (const record of event.Records) {
    const receipt: unknown = JSON.parse(record.Sns.Message);
    if (!(await applyReceipt(receipt))) logger.debug('SMS receipt changed nothing', { receipt });
  }
}

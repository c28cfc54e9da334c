import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from './observability';

/**
 * An SQS consumer that handles a batch's messages side by side (each JSON), so one slow message does not hold the
 * others back, and reports back only those that threw, so SQS delivers only them again (`reportBatchItemFailures`).
 * `failure` is the log line of a message that threw.
 */
export function eachMessage<T>(handle: (message: T) => Promise<unknown>, failure: string): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const failed = await Promise.all(
      event.Records.map((record) =>
        handle(JSON.parse(record.body) as T).then(
          () => [],
          (error: unknown) => {
            logger.error(failure, { error, messageId: record.messageId });
            return [{ itemIdentifier: record.messageId }];
          },
        ),
      ),
    );
    return { batchItemFailures: failed.flat() };
  };
}

import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { logger } from '#shared/observability';

/**
 * Time a record may take at worst: its DynamoDB writes (3 attempts of at most 4 s each, shared/dynamo.ts) and its
 * queue send, with room to spare. A record is not started with less than this left before the function's timeout.
 */
export const RECORD_BUDGET_MS = 20_000;

/** The part of Lambda's context this needs; a direct call (a test, a replay) passes none and has no deadline. */
export interface Deadline {
  getRemainingTimeInMillis(): number;
}

/**
 * Runs a stream batch one record at a time, in the shard's order, and stops at the first record that fails (or
 * that there is no time left to start). It answers Lambda's partial batch response naming that record: the event
 * source mapping (ReportBatchItemFailures) checkpoints after the records before it and hands it and the records
 * after it again. So a record that completed is never handed again, and the records after a failure, never
 * started, keep their order behind it. An empty list is the whole batch done.
 */
export async function processInOrder(
  records: DynamoDBRecord[],
  processRecord: (record: DynamoDBRecord) => Promise<void>,
  deadline?: Deadline,
): Promise<DynamoDBBatchResponse> {
  for (const [index, record] of records.entries()) {
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    // Without a sequence number nothing can be reported: a throw fails the whole batch, as Lambda then would.
    if (!sequenceNumber) throw new Error(`Stream record ${index} has no sequence number`);
    if (deadline && deadline.getRemainingTimeInMillis() < RECORD_BUDGET_MS) {
      logger.warn('stream batch stopped before its deadline; the rest is handed again', { sequenceNumber, left: records.length - index });
      return { batchItemFailures: [{ itemIdentifier: sequenceNumber }] };
    }
    try {
      await processRecord(record);
    } catch (error) {
      logger.error('stream record failed; it and the records after it are handed again', { error, sequenceNumber, eventName: record.eventName, left: records.length - index });
      return { batchItemFailures: [{ itemIdentifier: sequenceNumber }] };
    }
  }
  return { batchItemFailures: [] };
}

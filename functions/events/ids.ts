import { streamRecordId } from '#shared/ids';

/**
 * The id of the event a stream record stands for: `evt_` + a ULID of the change's time and the record's
 * sequence number. The same record always yields the same id, so a redelivered batch rewrites the same
 * events, webhooks carry the same `webhook-id`, and events of one millisecond still sort in commit order.
 */
export function eventIdOf(occurredAtMs: number, sequenceNumber: string): string {
  return streamRecordId('evt', occurredAtMs, sequenceNumber);
}

import { encodeTime } from 'ulid';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_BITS = 80n;

/** A stream record's position, as the 16 characters (80 bits) of a ULID's second half. */
function encodeSequence(sequenceNumber: string): string {
  let rest = BigInt(sequenceNumber) % (1n << RANDOM_BITS);
  let text = '';
  for (let i = 0; i < 16; i++) {
    text = CROCKFORD[Number(rest % 32n)] + text;
    rest /= 32n;
  }
  return text;
}

/**
 * The id of the event a stream record stands for: `evt_` + a ULID of the change's time and the record's
 * sequence number. The same record always yields the same id, so a redelivered batch rewrites the same
 * events, webhooks carry the same `webhook-id`, and events of one millisecond still sort in commit order.
 */
export function eventIdOf(occurredAtMs: number, sequenceNumber: string): string {
  return `evt_${encodeTime(occurredAtMs, 10)}${encodeSequence(sequenceNumber)}`;
}

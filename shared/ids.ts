import { encodeTime, ulid } from 'ulid';

/** `<kind>_<ULID>`: sortable by creation time, so sort keys built from them list newest first. */
export function newId(kind: string, at: Date = new Date()): string {
  return `${kind}_${ulid(at.getTime())}`;
}

export function now(): string {
  return new Date().toISOString();
}

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
 * The id of what a table stream record stands for: `<kind>_` + a ULID of the change's time and the record's
 * sequence number. The same record always yields the same id, so a redelivered batch rewrites the same items, and
 * ids of one millisecond still sort in commit order.
 */
export function streamRecordId(kind: string, atMs: number, sequenceNumber: string): string {
  return `${kind}_${encodeTime(atMs, 10)}${encodeSequence(sequenceNumber)}`;
}

import { createHash } from 'node:crypto';
import { encodeTime, ulid } from 'ulid';
import { attemptTime, nextAttemptId } from './own-writes';

/**
 * `<kind>_<ULID>`: sortable by creation time, so sort keys built from them list newest first. In a request with an
 * Idempotency-Key, the same in each of its attempts (shared/own-writes.ts), at the time of the first.
 */
export function newId(kind: string, at: Date = requestTime()): string {
  const attempt = nextAttemptId();
  return attempt ? derivedId(kind, attempt.atMs, attempt.seed) : `${kind}_${ulid(at.getTime())}`;
}

/**
 * An id of `kind` whose time is `at`, a time the request gave (an inquiry's createdAt), also in a request with an
 * Idempotency-Key, whose attempt gives its random part: every attempt makes the same id, and a list sorted by id sorts
 * by that time. `newId` takes the first attempt's time there instead, as a time read from the clock differs per attempt.
 */
export function newIdAt(kind: string, at: Date): string {
  const attempt = nextAttemptId();
  return attempt ? derivedId(kind, at.getTime(), attempt.seed) : `${kind}_${ulid(at.getTime())}`;
}

/**
 * An id of `kind` made from a seed rather than chance (`<kind>_` + a ULID of `atMs` whose random part comes from
 * sha256(seed)): the same seed and time always give the same id, so what is made twice is found as made once.
 */
export function derivedId(kind: string, atMs: number, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let byte = 0;
  return `${kind}_${ulid(atMs, () => digest[byte++ % digest.length]! / 256)}`;
}

/** The time a request's records take: now, or in a request with an Idempotency-Key, its first attempt's. */
export const requestTime = (): Date => new Date(attemptTime() ?? Date.now());

export function now(): string {
  return requestTime().toISOString();
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

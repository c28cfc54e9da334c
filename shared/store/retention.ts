import { encodeTime, MAX_ULID, MIN_ULID } from 'ulid';

/**
 * The id bounds of the last `days` days for `<kind>_<ULID>` ids. Items kept for a while (TTL) are listed
 * within this window, because DynamoDB deletes expired items only eventually.
 */
export function retentionWindow(kind: string, days: number, at = Date.now()): [string, string] {
  const oldest = at - days * 86_400_000;
  return [`${kind}_${encodeTime(oldest, 10)}${MIN_ULID.slice(10)}`, `${kind}_${MAX_ULID}`];
}

/**
 * Sync of an immutable, time-ordered log (`<kind>_<ULID>` ids of the time each record occurred): the ids from
 * `since` on. Not clamped to the retention window, so the range, and with it a cursor, stays the same however long
 * a poller follows it; records past their retention may show until DynamoDB's TTL deletes them.
 */
export function idsSince(kind: string, since: string): [string, string] {
  // Ids begin at the epoch: a time before it (updatedSince=1969-…) reads from the first.
  return [`${kind}_${encodeTime(Math.max(0, Date.parse(since)), 10)}${MIN_ULID.slice(10)}`, `${kind}_${MAX_ULID}`];
}

/** The greatest `<kind>_<ULID>` id of a record that occurred at or before `at` (epoch milliseconds). */
export const lastIdAt = (kind: string, at: number): string => `${kind}_${encodeTime(Math.max(0, at), 10)}${MAX_ULID.slice(10)}`;

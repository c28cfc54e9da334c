import * as v from 'valibot';
import { integerString } from './ids';
import { BEFORE_LATEST_RULE, DATE_TIME, isBeforeLatestInstant, isCalendarDateIfParsed, isDateTimeText, LATEST_INSTANT } from './time';
import { prose } from '../prose';

export const PAGE_DEFAULT = 1;
export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 100;

/**
 * A change time a list starts from: an ISO 8601 timestamp, normalized to UTC with milliseconds (as every stored
 * `updatedAt` is written), so comparing the text compares the times.
 */
export const UpdatedSince = v.pipe(
  v.string('updatedSince must be a string'),
  v.maxLength(40, 'updatedSince must be at most 40 characters'),
  v.check(isDateTimeText, 'updatedSince must be an ISO 8601 timestamp, e.g. 2026-11-23T00:00:00.000Z'),
  DATE_TIME,
  v.check(isCalendarDateIfParsed, 'updatedSince must be an ISO 8601 timestamp, e.g. 2026-11-23T00:00:00.000Z'),
  v.check(isBeforeLatestInstant, `updatedSince must be before ${LATEST_INSTANT}`),
  v.transform((text) => new Date(text).toISOString()),
  // Declares the output type, so the OpenAPI document describes the parameter as a date-time.
  v.string(),
  v.isoTimestamp(),
  v.description(prose`
    Sync: only the records changed (created or updated) at or after this time, oldest change first, by
    \`updatedAt\`, once the change is 20 s old (so that no record’s change can commit behind a cursor already
    passed). Keep following \`nextCursor\` (with the same updatedSince): at the end it is where the next poll
    resumes, and a record changed again after you passed it comes again, in its latest state. Deleted records leave
    the list; read their deletions from \`GET /v1/events?type=<resource>.deleted&updatedSince=…\`, a minute back,
    keeping each event id once. Events, audit entries and webhook delivery attempts never change: for them it is
    their occurredAt / at / attemptedAt, answered once 20 s old as well; events and audit entries are written a
    moment after their change, later when the writer retries, so read them a minute back keeping each id once.
    Combined with another filter of the list it answers 400 (but \`type\` on events and \`expand\` on
    inquiries). ${BEFORE_LATEST_RULE}
  `),
);

export const PageQuery = v.object({
  page: v.optional(integerString('page'), String(PAGE_DEFAULT)),
  limit: v.optional(integerString('limit', { max: LIMIT_MAX }), String(LIMIT_DEFAULT)),
  /** The nextCursor of a previous answer of the same list: the next `limit` items, at the same cost at any depth. */
  cursor: v.optional(v.pipe(v.string('cursor must be a string'), v.minLength(1, 'cursor must not be empty'), v.maxLength(2048, 'cursor must be at most 2048 characters'))),
  updatedSince: v.optional(UpdatedSince),
});
export type PageQuery = v.InferOutput<typeof PageQuery>;

/** A list response: the items under `key` plus totalPages, currentPage and totalCount. */
export function pageSchema<K extends string, S extends v.GenericSchema>(key: K, item: S) {
  return v.object({
    ...({ [key]: v.array(item) } as { [P in K]: v.ArraySchema<S, undefined> }),
    totalPages: v.pipe(v.number(), v.integer()),
    currentPage: v.pipe(v.number(), v.integer()),
    totalCount: v.pipe(v.number(), v.integer()),
    /** Pass as `cursor` for the items after these; null after the last. */
    nextCursor: v.nullable(v.string()),
  });
}

import * as v from 'valibot';
import { E164, NonEmptyString, Timestamp, partialUpdateBody } from '../../shared/schema';
import { ClosedDates, storedHours, WeeklyHours } from '../../shared/schedule';
import { canonicalE164 } from '../../shared/phone';

/** How the IANA database writes a zone (areas and locations capitalised: America/Argentina/Buenos_Aires, Etc/GMT+5), or UTC. */
const IANA_NAME = /^(?:UTC|[A-Z][A-Za-z_]*(?:\/[A-Z0-9][A-Za-z0-9_+-]*){1,2})$/;

/**
 * An IANA zone this runtime can read times in: its current names (Asia/Kolkata, Europe/Kyiv) as well as the older
 * ones ICU lists as canonical (Asia/Calcutta), which `Intl.supportedValuesOf` alone would have kept out.
 */
function isTimeZone(zone: string): boolean {
  if (!IANA_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name, e.g. Australia/Sydney. */
export const TimeZone = v.pipe(
  v.string('timezone must be a string'),
  v.maxLength(64, 'timezone must be at most 64 characters'),
  v.check(isTimeZone, 'timezone must be an IANA time zone, e.g. Australia/Sydney'),
  v.description('An IANA time zone name, e.g. Australia/Sydney.'),
);

/** The organization as stored; fields added after launch are optional with their default. */
export const OrganizationRecord = v.object({
  id: v.string(),
  name: v.string(),
  /** IANA time zone of the business: appointments and business hours are read in it. */
  timezone: v.optional(v.string(), 'UTC'),
  /** Who an SMS appears to come from: an E.164 number or an alphanumeric sender id (up to 11 characters). */
  smsSenderId: v.optional(v.nullable(v.string()), null),
  /** When the business is open, in its timezone; null until set (then whether it is open is not known). */
  businessHours: v.optional(v.nullable(WeeklyHours), null),
  closedDates: v.optional(ClosedDates, []),
  createdAt: Timestamp,
});

/**
 * The organization's item read as its record (its hours as storedHours reads them). Here rather than in ./entity.ts,
 * which the authorizer imports for the organization's key alone.
 */
export const fromOrganizationItem = (item: Record<string, unknown>): OrganizationRecord => v.parse(OrganizationRecord, { ...item, businessHours: storedHours(item.businessHours) });
export type OrganizationRecord = v.InferOutput<typeof OrganizationRecord>;

const count = v.pipe(v.number(), v.integer());

export const Organization = v.object({
  ...OrganizationRecord.entries,
  counts: v.object({ leads: count, members: count, services: count }),
  /** From businessHours and closedDates now: null while businessHours is not set. */
  isOpenNow: v.nullable(v.boolean()),
  /** While open, when the current opening ends (periods that meet are one opening); otherwise null. */
  closesAt: v.nullable(Timestamp),
  /** While closed, when the business next opens; null while open, or when no opening is set within the next year. */
  nextOpenAt: v.nullable(Timestamp),
});
export type Organization = v.InferOutput<typeof Organization>;

export const OrganizationResponse = v.object({ organization: Organization });

/**
 * What End User Messaging takes as a sender: an E.164 number, or an alphanumeric sender id (letters and digits
 * only, no spaces, 1 to 11 of them, at least one a letter, so it cannot be mistaken for a number).
 */
export const SMS_SENDER_ID = new RegExp(`^(?:${E164.source.slice(1, -1)}|(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,11})$`);

export const UpdateOrganizationBody = partialUpdateBody({
  name: NonEmptyString('name', 200),
  timezone: TimeZone,
  businessHours: v.pipe(v.nullable(WeeklyHours), v.description('The whole week, replacing the one stored (days are not merged): a day left out or empty is closed. `null`: hours unknown again.')),
  closedDates: ClosedDates,
  smsSenderId: v.nullable(
    v.pipe(
      v.string('smsSenderId must be a string'),
      v.trim(),
      v.maxLength(16, 'smsSenderId must be at most 16 characters'),
      v.regex(SMS_SENDER_ID, 'smsSenderId must be a phone number in E.164 format or a sender id of 1 to 11 letters and digits with at least one letter'),
      // A number is stored in its one E.164 form (`+610299990000` is `+61299990000`), as a lead's phone is: replies name it so.
      v.transform((id) => (E164.test(id) ? canonicalE164(id) : id)),
    ),
  ),
});
export type OrganizationChanges = v.InferOutput<typeof UpdateOrganizationBody>;

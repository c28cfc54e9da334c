import * as v from 'valibot';
import { NonEmptyString, Timestamp, partialUpdateBody } from '#shared/schema';
import { ClosedDates, storedHours, WeeklyHours } from '#shared/schedule';
import { DEFAULT_COUNTRY, isCountry } from '#shared/countries';
import { prose } from '#shared/prose';

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

/** How one field names a code of an ISO standard: the standard's code, its length in letters, examples, and which codes exist. */
interface IsoCodeField {
  field: string;
  code: string;
  letters: number;
  examples: string;
  /** Whether the code, upper case, is one of the standard's. */
  isKnown: (code: string) => boolean;
  description: string;
}

/** A code of an ISO standard, taken in any case and stored upper case; one the standard lacks answers 400 naming the field. */
function isoCode({ field, code, letters, examples, isKnown, description }: IsoCodeField) {
  const message = `${field} must be an ${code}, e.g. ${examples}`;
  return v.pipe(
    v.string(`${field} must be a string`),
    v.trim(),
    v.regex(new RegExp(`^[A-Za-z]{${letters}}$`), message),
    v.description(description),
    v.check((value) => isKnown(value.toUpperCase()), message),
    // The document describes what a client sends (any case); the stored and answered code is upper case.
    v.transform((value) => value.toUpperCase()),
  );
}

/** A country as ISO 3166-1 alpha-2 (`AU`, `NZ`, `US`; any case, stored upper case), one with a phone numbering plan. */
export const Country = isoCode({
  field: 'country',
  code: 'ISO 3166-1 alpha-2 country code',
  letters: 2,
  examples: 'AU, NZ or US',
  isKnown: isCountry,
  description: prose`
    ISO 3166-1 alpha-2 code of the organization's country (default \`AU\`): phones written or looked up in national
    form (\`0412 345 678\`, \`(02) 9555 1234\`) are read in its numbering plan and stored in E.164. Changing it
    changes how later input is read, not numbers already stored. An unknown code answers 400.
  `,
});

/** What an organization's amounts of money are in until it says otherwise. */
export const DEFAULT_CURRENCY = 'AUD';

/** The ISO 4217 codes this runtime knows, upper case. */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** A currency as ISO 4217 (`AUD`, `NZD`, `USD`; any case, stored upper case). */
export const Currency = isoCode({
  field: 'currency',
  code: 'ISO 4217 currency code',
  letters: 3,
  examples: 'AUD, NZD or USD',
  isKnown: (code) => CURRENCIES.has(code),
  description:
    "ISO 4217 code of the currency the organization's amounts of money are in (default `AUD`): a lead's `value` and every money figure reported of it. Changing it relabels the amounts stored, it converts none. Any case is taken and the code is stored upper case; an unknown code answers 400.",
});

/** What an organization's automations may text one lead in a day until it says otherwise, and the most it may choose. */
export const DEFAULT_AUTOMATION_SMS_DAILY_CAP = 3;
export const MAX_AUTOMATION_SMS_DAILY_CAP = 20;

/** The organization as stored; fields added after launch are optional with their default. */
export const OrganizationRecord = v.object({
  id: v.string(),
  name: v.string(),
  /** IANA time zone of the business: appointments and business hours are read in it. */
  timezone: v.optional(v.string(), 'UTC'),
  /** ISO 3166-1 alpha-2: the country whose national phone forms (`0412 345 678`) the organization's writes and lookups read. */
  country: v.optional(v.string(), DEFAULT_COUNTRY),
  /** ISO 4217: what a lead's value and the reports' money figures are in. Absent on organizations made before it: AUD. */
  currency: v.optional(v.string(), DEFAULT_CURRENCY),
  /** Who an SMS appears to come from: an E.164 number or an alphanumeric sender id (up to 11 characters). */
  smsSenderId: v.optional(v.nullable(v.string()), null),
  /** When the business is open, in its timezone; null until set (then whether it is open is not known). */
  businessHours: v.optional(v.nullable(WeeklyHours), null),
  closedDates: v.optional(ClosedDates, []),
  /** How many SMS its automations send one lead in a day (the organization's local day), at most. */
  automationSmsDailyCap: v.optional(v.pipe(v.number(), v.integer()), DEFAULT_AUTOMATION_SMS_DAILY_CAP),
  /** Whether its admins get an SMS when something stops on its own, such as a webhook the service disabled (functions/sms/owner-alerts.ts). */
  ownerAlertsSms: v.optional(v.boolean(), true),
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
 * What End User Messaging takes as a sender: a phone number, or an alphanumeric sender id (letters and digits only,
 * no spaces, 1 to 11 of them, at least one a letter, so it cannot be mistaken for a number). A number is taken as
 * every phone field takes one (`+61 2 9999 0620`, `(02) 9999 0620` in the organization's country) and stored in
 * E.164 (the handler reads it); the pattern admits the characters a typed number has.
 */
export const SMS_SENDER_ID = /^(?:\+?[\d\s().-]+|(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,11})$/;

export const UpdateOrganizationBody = partialUpdateBody({
  name: NonEmptyString('name', 200),
  timezone: TimeZone,
  country: Country,
  currency: Currency,
  businessHours: v.pipe(v.nullable(WeeklyHours), v.description('The whole week, replacing the one stored (days are not merged): a day left out or empty is closed. `null`: hours unknown again.')),
  closedDates: ClosedDates,
  automationSmsDailyCap: v.pipe(
    v.number('automationSmsDailyCap must be a number'),
    v.integer('automationSmsDailyCap must be a whole number'),
    v.minValue(1, `automationSmsDailyCap must be from 1 to ${MAX_AUTOMATION_SMS_DAILY_CAP}`),
    v.maxValue(MAX_AUTOMATION_SMS_DAILY_CAP, `automationSmsDailyCap must be from 1 to ${MAX_AUTOMATION_SMS_DAILY_CAP}`),
    v.description(
      `Automated SMS one lead may receive in a local day, 1 to ${MAX_AUTOMATION_SMS_DAILY_CAP} (default ${DEFAULT_AUTOMATION_SMS_DAILY_CAP}); a step past it is skipped (\`DAILY_CAP_REACHED\`).`,
    ),
  ),
  ownerAlertsSms: v.pipe(
    v.boolean('ownerAlertsSms must be a boolean'),
    v.description(
      prose`
        Whether admins with a phone get an SMS from \`smsSenderId\` when something stops on its own: a webhook the
        service disabled (\`webhook.disabled\`), an address refused inbound posts for the day
        (\`inbound_endpoint.source_limited\`). \`true\` by default; once per event and admin; never to a phone that
        replied STOP.
      `,
    ),
  ),
  smsSenderId: v.nullable(
    v.pipe(
      v.string('smsSenderId must be a string'),
      v.trim(),
      v.maxLength(32, 'smsSenderId must be at most 32 characters'),
      v.regex(SMS_SENDER_ID, 'smsSenderId must be a phone number (+61 2 9999 0620, or national in the organization’s country) or a sender id of 1 to 11 letters and digits with at least one letter'),
      v.description(prose`
        A phone number, with its country code or in the national form of the organization’s \`country\` (the one sent
        beside it, else the stored one), stored and answered in E.164 (one that is no valid number of any numbering
        plan answers 400 naming the field); or an alphanumeric sender id of 1 to 11 letters and digits with at least
        one letter, stored as sent.
      `),
    ),
  ),
});
export type OrganizationChanges = v.InferOutput<typeof UpdateOrganizationBody>;

// The `min` metadata: every country's numbering plan (lengths and leading digits, so `isValid` refuses a number no plan
// has) without the per-type patterns (mobile, fixed line) nothing here asks for; `max` would add about 70 KB to every
// function that reads a phone.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { isCountry } from './countries';

export type { CountryCode };

/** The plans' own code for a country an organization may have (shared/countries.ts lists the same ones). */
export const countryCodeOf = (code: string): CountryCode | undefined => (isCountry(code) ? (code as CountryCode) : undefined);

/** What a typed phone number may hold besides digits: spaces, brackets, dots, dashes and a leading plus. */
const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/** Whether text reads as a phone number rather than a name: only phone characters, and at least 6 digits. */
export const looksLikePhone = (text: string) => PHONE_LIKE.test(text.trim()) && text.replace(/\D/g, '').length >= 6;

/** The number text is in E.164, when it is a valid number of its country's plan. */
function valid(text: string, country: CountryCode | undefined): string | undefined {
  const number = parsePhoneNumberFromString(text, country ? { defaultCountry: country } : undefined);
  return number?.isValid() ? number.number : undefined;
}

/**
 * A phone number in any common form as E.164, or undefined when it is no valid number: `+61 412 345 678`,
 * `+61 (0)412 345 678` and `+61 0412 345 678` as they are; `0061 412 345 678` too (00 is the international prefix of
 * most countries, though not of Australia's own plan); a national form (`0412 345 678`, `(02) 9555 1234`,
 * `(415) 555-2671`), or the international one without its plus (`61 412 345 678`), read in `country`.
 */
export function toE164(text: string, country: CountryCode | undefined): string | undefined {
  const trimmed = text.trim();
  if (!PHONE_LIKE.test(trimmed)) return undefined;
  return valid(trimmed, country) ?? (trimmed.startsWith('00') ? valid(`+${trimmed.slice(2)}`, undefined) : undefined);
}

/**
 * The one E.164 form of a number already written with its calling code: `+610412345678` is `+61412345678`. Stored
 * phones are written in it, so a contact claim, a caller lookup and a search compare the same text. Anything else (a
 * number no plan has, an alphanumeric SMS sender id) is left as it is.
 */
export const canonicalE164 = (e164: string): string => toE164(e164, undefined) ?? e164;

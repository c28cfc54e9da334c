import type { CountryCode } from 'libphonenumber-js/min';
import { isCountry } from './countries';

export type { CountryCode };

/** The plans' own code for a country an organization may have (shared/countries.ts lists the same ones). */
export const countryCodeOf = (code: string): CountryCode | undefined => (isCountry(code) ? (code as CountryCode) : undefined);

/** What a typed phone number may hold besides digits: spaces, brackets, dots, dashes and a leading plus. */
const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/** Whether text reads as a phone number rather than a name: only phone characters, and at least 6 digits. */
export const looksLikePhone = (text: string) => PHONE_LIKE.test(text.trim()) && text.replace(/\D/g, '').length >= 6;

/**
 * libphonenumber-js with the `min` metadata: every country's numbering plan (lengths and leading digits, so `isValid`
 * refuses a number no plan has) without the per-type patterns (mobile, fixed line) nothing here asks for (`max` would
 * add about 70 KB), nor the formats for display (./phone-metadata.ts, 50 KB). Loaded with import() at the first number
 * read, once per container, from a chunk of its own (infra/cdk/bundling.ts): about 70 KB that a function's routes which
 * read no phone (a list, a read, the receptionist's context, an inbound endpoint's settings) never parse.
 */
let parserLoaded: Promise<typeof import('./phone-plans')> | undefined;
const parser = () => (parserLoaded ??= import('./phone-plans'));

/** The number text is in E.164, when it is a valid number of its country's plan. */
async function valid(text: string, country: CountryCode | undefined): Promise<string | undefined> {
  const number = await (await parser()).parsePhoneNumberFromString(text, country ? { defaultCountry: country } : undefined);
  return number?.isValid() ? number.number : undefined;
}

/**
 * A phone number in any common form as E.164, or undefined when it is no valid number: `+61 412 345 678`,
 * `+61 (0)412 345 678` and `+61 0412 345 678` as they are; `0061 412 345 678` too (00 is the international prefix of
 * most countries, though not of Australia's own plan); a national form (`0412 345 678`, `(02) 9555 1234`,
 * `(415) 555-2671`), or the international one without its plus (`61 412 345 678`), read in `country`.
 */
export async function toE164(text: string, country: CountryCode | undefined): Promise<string | undefined> {
  const trimmed = text.trim();
  if (!PHONE_LIKE.test(trimmed)) return undefined;
  return (await valid(trimmed, country)) ?? (trimmed.startsWith('00') ? valid(`+${trimmed.slice(2)}`, undefined) : undefined);
}

/**
 * The one E.164 form of a number already written with its calling code: `+610412345678` is `+61412345678`. Stored
 * phones are written in it, so a contact claim, a caller lookup and a search compare the same text. Anything else (a
 * number no plan has, an alphanumeric SMS sender id) is left as it is.
 */
export const canonicalE164 = async (e164: string): Promise<string> => (await toE164(e164, undefined)) ?? e164;

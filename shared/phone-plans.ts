import { parsePhoneNumberFromString as parseWith, type CountryCode, type MetadataJson, type PhoneNumber } from 'libphonenumber-js/core';
import { withoutFormats } from './phone-metadata';

/** Set by the bundler (infra/cdk/bundling.ts) to the plans as JSON, without their formats; absent run from source. */
declare const PHONE_PLANS_BUILT: string | undefined;

let plans: MetadataJson | undefined;

/**
 * Every country's numbering plan, without the formats nothing here reads (./phone-metadata.ts): in a bundle, written by
 * the bundler as JSON (about 33 KB, read with JSON.parse); run from source, taken from the library's `min` metadata
 * here (the bundler leaves that branch out).
 */
const numberingPlans = async (): Promise<MetadataJson> =>
  (plans ??= typeof PHONE_PLANS_BUILT === 'string' ? (JSON.parse(PHONE_PLANS_BUILT) as MetadataJson) : withoutFormats((await import('libphonenumber-js/min/metadata')).default));

/**
 * What shared/phone.ts loads with import() at the first number it reads: the parser (libphonenumber-js's core, given
 * the plans), so the chunk holds the code reading a number and the plans alone (about 70 KB), not the library's
 * formatters, its as-you-type reader or the plans' formats.
 */
export async function parsePhoneNumberFromString(text: string, options?: { defaultCountry?: CountryCode }): Promise<PhoneNumber | undefined> {
  return parseWith(text, options ?? {}, await numberingPlans());
}

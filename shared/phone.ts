import { E164 } from './schema';

/**
 * The country calling code and national trunk prefix of an organization, read from its time zone (the organization
 * record has no country of its own): enough to read the national forms people type (`0412 345 678`,
 * `(04) 1234 5678`, `(415) 555-2671`) as E.164. Zones not listed have no national form; their numbers must carry
 * their country code.
 */
export interface Dialling {
  callingCode: string;
  /** The digit a national number starts with and E.164 drops (0 in Australia, 1 in North America). */
  trunk: string;
  /**
   * The most digits a national number has after its trunk prefix, freephone and other service numbers included
   * (Ireland's and Singapore's 1800 numbers have no trunk prefix): more, and it was typed with its calling code.
   */
  longest: number;
}

const AU = { callingCode: '61', trunk: '0', longest: 10 };
const NZ = { callingCode: '64', trunk: '0', longest: 10 };
const NANP = { callingCode: '1', trunk: '1', longest: 10 };

const BY_ZONE: Array<[RegExp, Dialling]> = [
  [/^Australia\//, AU],
  [/^Pacific\/(Auckland|Chatham)$/, NZ],
  [/^Europe\/(London|Belfast)$/, { callingCode: '44', trunk: '0', longest: 10 }],
  [/^Europe\/Dublin$/, { callingCode: '353', trunk: '0', longest: 10 }],
  [/^America\/(New_York|Chicago|Denver|Phoenix|Los_Angeles|Anchorage|Detroit|Boise|Indiana\/.+|Kentucky\/.+|Toronto|Vancouver|Edmonton|Winnipeg|Halifax|St_Johns|Regina)$/, NANP],
  [/^Pacific\/Honolulu$/, NANP],
  [/^Asia\/Singapore$/, { callingCode: '65', trunk: '', longest: 11 }],
];

export const diallingOfTimeZone = (timezone: string): Dialling | undefined => BY_ZONE.find(([zone]) => zone.test(timezone))?.[1];

/** What a typed phone number may hold besides digits: spaces, brackets, dots, dashes and a leading plus. */
const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/** Whether text reads as a phone number rather than a name: only phone characters, and at least 6 digits. */
export const looksLikePhone = (text: string) => PHONE_LIKE.test(text.trim()) && text.replace(/\D/g, '').length >= 6;

/** The trunk prefix an international form shows in brackets and no one dials: `+61 (0)412 345 678`, `+44 (0) 20 …`. */
const BRACKETED_TRUNK = /\(\s*0\s*\)/;

/**
 * Calling codes of the countries above whose trunk prefix is 0: none of their numbers starts with 0 after the code, so
 * a 0 there is the trunk prefix typed without brackets (`+61 0412 345 678`). Not every country's: Italy's numbers keep it.
 */
const TRUNK_ZERO_CODES = [...new Set(BY_ZONE.filter(([, dialling]) => dialling.trunk === '0').map(([, dialling]) => dialling.callingCode))];

/** International digits without a trunk 0 typed after a calling code that never has one. */
function withoutTypedTrunk(digits: string): string {
  const code = TRUNK_ZERO_CODES.find((callingCode) => digits.startsWith(`${callingCode}0`));
  return code ? `${code}${digits.slice(code.length + 1)}` : digits;
}

/**
 * The one E.164 form of a number already written with its calling code: `+610412345678` is `+61412345678`. Stored
 * phones are written in it, so a contact claim, a caller lookup and a search compare the same text.
 */
export const canonicalE164 = (e164: string): string => `+${withoutTypedTrunk(e164.slice(1))}`;

/**
 * A phone number in any common form as E.164, or undefined when it cannot be read as one: `+61 412 345 678`,
 * `+61 (0)412 345 678`, `+61 0412 345 678` and `0061 412 345 678` as they are; a national form (`0412 345 678`) with the organization's
 * dialling, when it has one.
 */
export function toE164(text: string, dialling: Dialling | undefined): string | undefined {
  const trimmed = text.trim();
  if (!PHONE_LIKE.test(trimmed)) return undefined;
  const international = trimmed.startsWith('+') || trimmed.startsWith('00');
  const digits = (international ? trimmed.replace(BRACKETED_TRUNK, '') : trimmed).replace(/\D/g, '');
  const candidate = trimmed.startsWith('+') ? `+${withoutTypedTrunk(digits)}` : digits.startsWith('00') ? `+${withoutTypedTrunk(digits.slice(2))}` : national(digits, dialling);
  return candidate && E164.test(candidate) ? candidate : undefined;
}

/**
 * Digits without a `+` or `00`, read with the organization's dialling: a national number (its trunk prefix dropped), or,
 * longer than any national number and starting with the country's calling code, the international form typed without
 * its `+` (`61 412 345 678`). Longer still is no number of that country.
 */
function national(digits: string, dialling: Dialling | undefined): string | undefined {
  if (!dialling) return undefined;
  const { callingCode, trunk, longest } = dialling;
  const significant = trunk && digits.startsWith(trunk) ? digits.slice(trunk.length) : digits;
  if (significant.length <= longest) return `+${callingCode}${significant}`;
  const international = withoutTypedTrunk(digits);
  return international.startsWith(callingCode) && international.length - callingCode.length <= longest ? `+${international}` : undefined;
}

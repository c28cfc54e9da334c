import * as v from 'valibot';
import { NotFoundError } from '../errors';

/**
 * How an id that cannot exist is answered: exactly as an id that does not, without reaching a key. An id schema
 * registers its format check here with that answer; parsing a path or a body turns a failed check into the answer.
 */
const unknownIdAnswers = new WeakMap<object, (value: unknown) => Error>();

/** The answer registered for a failed check (`issue.requirement`), if it is an id's. */
export function unknownIdAnswer(requirement: unknown): ((value: unknown) => Error) | undefined {
  return typeof requirement === 'object' || typeof requirement === 'function' ? unknownIdAnswers.get(requirement as object) : undefined;
}

export interface IdOptions {
  /** What the resource calls the record when it is not found (`Trade product` → "Trade product not found"). */
  label?: string;
  /** The whole answer to an unknown id, when it is not a 404 (a reference the create refuses with a 400). */
  unknown?: (value: unknown) => Error;
}

/** `inboundEndpointId` → "Inbound endpoint". */
const labelOf = (name: string) => name.replace(/Id$/, '').replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`).replace(/^./, (letter) => letter.toUpperCase());
const answerOf = (name: string, { label, unknown }: IdOptions) => unknown ?? (() => new NotFoundError(`${label ?? labelOf(name)} not found`));

/**
 * Positive integer written in a path or query string. As an id (a name ending in `Id`), one that cannot exist
 * answers as an unknown one does.
 */
export function integerString(name: string, { min = 1, max = 2_147_483_647, ...id }: { min?: number; max?: number } & IdOptions = {}) {
  // As an id, one check of the whole shape first, so the id's answer is found whichever rule after it fails.
  // Written as the API writes ids: no sign, no leading zero (`01` would otherwise reach record 1 under another spelling).
  const possible = (text: string) => !name.endsWith('Id') || (/^(?:0|[1-9]\d*)$/.test(text) && Number(text) >= min && Number(text) <= max);
  if (name.endsWith('Id')) unknownIdAnswers.set(possible, answerOf(name, id));
  return v.pipe(
    v.string(),
    v.check(possible, `${name} must be an integer from ${min} to ${max}`),
    v.regex(/^-?\d+$/, `${name} must be an integer`),
    v.transform(Number),
    // Declares the output type, so the OpenAPI document describes the parameter as an integer.
    v.number(),
    v.integer(`${name} must be an integer`),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );
}

/**
 * An id the API issued: `<kind>_` and a 26-character ULID, exactly. Checking the whole format keeps
 * any other text (a `#`, a key fragment) from ever reaching a key.
 */
export function PrefixedId(kind: string, name: string, id: IdOptions = {}) {
  const format = new RegExp(`^${kind}_[0-9A-HJKMNP-TV-Z]{26}$`);
  unknownIdAnswers.set(format, answerOf(name, id));
  return v.pipe(v.string(`${name} must be a string`), v.regex(format, `${name} must be a ${kind} id: ${kind}_ followed by 26 characters`));
}

/**
 * An id the API keeps as another made it, in base64url (a passkey's credential id, its authenticator's): text of
 * another alphabet or length cannot exist, and answers as an unknown id does.
 */
export function Base64UrlId(name: string, { min, max }: { min: number; max: number }, id: IdOptions = {}) {
  const format = new RegExp(`^[A-Za-z0-9_-]{${min},${max}}$`);
  unknownIdAnswers.set(format, answerOf(name, id));
  return v.pipe(v.string(`${name} must be a string`), v.regex(format, `${name} must be base64url, of ${min} to ${max} characters`));
}

import * as v from 'valibot';

/** Control characters other than tab, line feed and carriage return: never part of text a person wrote. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/**
 * Unicode's format characters (Cf) of the Basic Multilingual Plane, such as the zero-width space, written out rather
 * than as `\p{Cf}`: the document's pattern must compile in every validator (Python's `re` has no `\p{…}`, and
 * validators that read a pattern by UTF-16 unit cannot take a range of characters beyond the plane either). U+FEFF,
 * white space as well, is left to WHITE_SPACE, so that no character is in both.
 */
const FORMAT_CHARACTERS = '\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFFF9-\\uFFFB';
/** White space as JavaScript's `\s` and trim() read it, written out: Python's `\s` takes control characters as well. */
const WHITE_SPACE = '\\t\\n\\u000B\\u000C\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';
/**
 * Characters that show nothing: white space and format characters, all of them. Text of nothing but format characters
 * beyond the plane (tag characters, musical formatting) is refused here though the document's pattern takes it.
 */
const INVISIBLE = new RegExp(`[\\s${FORMAT_CHARACTERS}\\u{110BD}\\u{110CD}\\u{13430}-\\u{1343F}\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0001}\\u{E0020}-\\u{E007F}]`, 'gu');

/**
 * Half of a character (a UTF-16 surrogate without its pair) spells no text: UTF-8, which DynamoDB stores, cannot
 * encode it, and strict JSON readers refuse an answer that carries it.
 */
const isWholeText = (text: string) => text.isWellFormed();

/**
 * At most `max` characters, counted as the document's JSON Schema `maxLength` counts them (code points), not as
 * JavaScript's `length` does (UTF-16 units, two for an emoji): a text the document allows is never refused.
 */
export const atMostCharacters = (name: string, max: number) =>
  v.check((text: string) => {
    let count = 0;
    for (const _ of text) if (++count > max) return false;
    return true;
  }, `${name} must be at most ${max} characters`);

/** What every free-text field accepts, in words and as the document's pattern (the checks above, read as one). */
export const TEXT_RULE = 'Trimmed of surrounding white space; must have at least one visible character, no control characters other than tab, line feed and carriage return, and no half of a character (a lone surrogate).';
const NOT_CONTROL = '[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]';
/**
 * White space around the text is trimmed before the checks, so any may stand there, the two control characters that
 * are white space (vertical tab, form feed) included. Read left to right, each character has one part of the pattern
 * that can take it, so a validator that backtracks never tries one text split two ways (its time grows with the
 * length, not a power of it): white space; before the first visible character, format characters and white space but
 * the two; the first visible character; any text but control characters; a vertical tab or a form feed, and only
 * white space after it.
 */
export const TEXT_PATTERN =
  `^[${WHITE_SPACE}]*(?:[${FORMAT_CHARACTERS}][${FORMAT_CHARACTERS}${WHITE_SPACE.replace('\\u000B\\u000C', '')}]*)?` +
  `[^${WHITE_SPACE}${FORMAT_CHARACTERS}\\u0000-\\u001F\\u007F-\\u009F]${NOT_CONTROL}*(?:[\\u000B\\u000C][${WHITE_SPACE}]*)?$`;

/**
 * Text a person wrote: normalized to NFC (so é is one character however it was typed), trimmed, free of
 * control characters, with at least one visible character, and at most `max` characters.
 */
export const NonEmptyString = (name: string, max = 500) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.normalize('NFC'),
    v.trim(),
    v.minLength(1, `${name} must not be empty`),
    v.check((text) => !CONTROL.test(text), `${name} must not contain control characters`),
    v.check(isWholeText, `${name} must not hold half of a character (a lone surrogate)`),
    v.check((text) => text.replace(INVISIBLE, '') !== '', `${name} must have a visible character`),
    atMostCharacters(name, max),
    v.description(TEXT_RULE),
    v.metadata({ jsonSchema: { pattern: TEXT_PATTERN, maxLength: max } }),
  );

/** Keys a valibot record leaves out of what it answers (names of Object.prototype's own), so it would drop them silently. */
const UNKEPT_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Refuses, naming the field, an object with a key a record would drop: run on the input, before the record. */
export const everyKeyKept = (name: string) =>
  v.check<Record<string, unknown>, string>((input) => !Object.keys(input).some((key) => UNKEPT_KEYS.has(key)), `${name} must not have a key named __proto__, constructor or prototype`);

/** An object, not an array: what a record reads an array as (an object of its indexes) is refused. */
export const isPlainObject = (input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && !Array.isArray(input);

/** The rule of free text that may be empty (a description, a receptionist's answer), and its pattern. */
export const OPTIONAL_TEXT_RULE = 'Trimmed of surrounding white space; may be empty; no control characters other than tab, line feed and carriage return, and no half of a character (a lone surrogate).';
export const OPTIONAL_TEXT_PATTERN = `^${NOT_CONTROL}*$`;

/** Text a person wrote that may be empty: NFC, trimmed, free of control characters, at most `max` characters. */
export const OptionalText = (name: string, max: number) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.normalize('NFC'),
    v.trim(),
    v.check((text) => !CONTROL.test(text), `${name} must not contain control characters`),
    v.check(isWholeText, `${name} must not hold half of a character (a lone surrogate)`),
    atMostCharacters(name, max),
    v.description(OPTIONAL_TEXT_RULE),
    v.metadata({ jsonSchema: { pattern: OPTIONAL_TEXT_PATTERN, maxLength: max } }),
  );

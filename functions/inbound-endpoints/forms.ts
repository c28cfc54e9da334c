import { ApiError, ValidationError } from '#shared/errors';
import { parseMultipart } from '#shared/http/multipart';
import { now } from '#shared/ids';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '#shared/json-depth';
import { looksLikePhone } from '#shared/phone';
import { readPhone } from '../leads/phones';
import type { InboundEndpointRecord } from './entity';

/**
 * Field name → value with no prototype: a field named constructor, toString or __proto__ is just a name,
 * never a member of Object.prototype read back as a value, nor a prototype set by assigning it.
 */
export type Fields = Record<string, unknown>;
const emptyFields = (): Fields => Object.create(null) as Fields;

/** A field posted again under the same name (checkboxes) joins the first: `a, b`. */
const addField = (fields: Fields, name: string, value: string) => {
  fields[name] = Object.hasOwn(fields, name) ? `${String(fields[name])}, ${value}` : value;
};

export const mediaTypeOf = (headers: Record<string, string>) => (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** What an HTML form posts: its visitor's browser is the sender, so a redirect can answer it. */
export const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** A post's fields, and the names of the files it carried, which are not kept. */
interface Posted {
  fields: Fields;
  droppedFiles: string[];
}

/** What a form's record keeps of the files it dropped: names, at most this many of this many characters. */
const MAX_DROPPED_FILES = 20;
const MAX_FILE_NAME = 255;

/**
 * A multipart form's text fields, and the files it carried by name (their field's name when the file has none): a
 * file is dropped, as there is nowhere to keep it, and the rest of the form is recorded, saying which were dropped.
 * An unused file input (no filename, no content), which browsers post all the same, is no file.
 */
function multipartFields(contentType: string, body: string): Posted {
  const fields = emptyFields();
  const droppedFiles: string[] = [];
  for (const part of parseMultipart(body, contentType)) {
    if (part.filename === '' && part.value === '') continue;
    if (part.filename !== undefined) droppedFiles.push([...(part.filename || part.name)].slice(0, MAX_FILE_NAME).join(''));
    else addField(fields, part.name, part.value);
  }
  return { fields, droppedFiles: droppedFiles.slice(0, MAX_DROPPED_FILES) };
}

/** The posted body as name → value: JSON (an object) or an HTML form's fields (urlencoded or multipart), with the files a multipart form carried. Anything else is 415. */
export function postedOf(headers: Record<string, string>, body: string): Posted {
  const type = mediaTypeOf(headers);
  if (type === 'multipart/form-data') return multipartFields(headers['content-type']!, body);
  return { fields: fieldsOf(type, body), droppedFiles: [] };
}

/** A body of a media type that carries no files: JSON (an object) or urlencoded. Any other is 415. */
export function fieldsOf(type: string, body: string): Fields {
  if (type === 'application/x-www-form-urlencoded') {
    const fields = emptyFields();
    for (const [name, value] of new URLSearchParams(body)) addField(fields, name, value);
    return fields;
  }
  if (type === 'application/json') {
    // Read before parsing: a value nested thousands deep would parse, then overflow the stack of whatever recurses over it.
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new ApiError(400, `The body must not nest deeper than ${MAX_JSON_DEPTH} levels`, 'INVALID_JSON');
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ApiError(400, 'The body is not valid JSON', 'INVALID_JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ValidationError([{ path: 'body', message: 'body must be a JSON object' }]);
    // JSON.parse makes "__proto__" an own key; copied onto a prototype-free map it stays one.
    return Object.assign(emptyFields(), parsed);
  }
  throw new ApiError(415, 'Send application/json, application/x-www-form-urlencoded or multipart/form-data', 'UNSUPPORTED_MEDIA_TYPE');
}

/**
 * A form's phone as people type it, as E.164 to find a lead by: an international form as it is, a national one
 * (`0412 345 678`, what most forms get) with the organization's country, which is read only then. Text that is no
 * phone number leaves the lead without one.
 */
async function phoneOf(organizationId: string, value: unknown): Promise<string | undefined> {
  return typeof value === 'string' && looksLikePhone(value) ? readPhone(organizationId, value) : undefined;
}
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * The sender's own id of a post: text, or a number as a form builder's entry numbers are (4242 is "4242"). Anything
 * else is refused naming it: dropped, a retry would be recorded twice.
 */
export function senderIdOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string') return text(value);
  throw new ValidationError([{ path: 'externalInquiryId', message: 'externalInquiryId must be a string or an integer' }]);
}

/** Fields that steer the inquiry rather than being part of the submission. */
const CONTROL_FIELDS = new Set(['externalInquiryId', 'formName', 'pageUrl']);

/** A web form: every field kept, the lead from email/phone/name (renamed through the endpoint's fieldMap). */
export async function webformInquiry(endpoint: InboundEndpointRecord, posted: Fields, droppedFiles: string[]) {
  const fieldMap = endpoint.fieldMap ?? {};
  const named = emptyFields();
  for (const [field, value] of Object.entries(posted)) named[Object.hasOwn(fieldMap, field) ? fieldMap[field]! : field] = value;
  const fields = Object.entries(posted)
    // The honeypot, left empty as people leave it, is the page's trap, not the visitor's answer.
    .filter(([name]) => !CONTROL_FIELDS.has(name) && name !== endpoint.honeypotField)
    .map(([name, value]) => ({ name, label: name, value: typeof value === 'string' ? value : JSON.stringify(value) }));
  const message = text(named.message) ?? fields.find((field) => field.value.length >= 40)?.value;
  return {
    source: 'WEBFORM',
    lead: { email: text(named.email), phone: await phoneOf(endpoint.organizationId, named.phone), name: text(named.name), firstName: text(named.firstName), lastName: text(named.lastName) },
    summary: message && [...message.replace(/\s+/g, ' ')].slice(0, 1000).join(''),
    data: { formName: text(posted.formName) ?? endpoint.name, fields, submittedAt: now(), pageUrl: text(posted.pageUrl) ?? null, ...(droppedFiles.length > 0 ? { droppedFiles } : {}) },
  };
}

/** The named entities mail clients write; any other stays as written. Numeric ones are all decoded. */
const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ',
  rsquo: '\u2019', lsquo: '\u2018', rdquo: '\u201d', ldquo: '\u201c', ndash: '\u2013', mdash: '\u2014', hellip: '\u2026',
  bull: '\u2022', middot: '\u00b7', copy: '\u00a9', reg: '\u00ae', trade: '\u2122', deg: '\u00b0', euro: '\u20ac', pound: '\u00a3',
};

/** What a reader sees of an HTML body, on one line: no head, styles, scripts or comments, tags as spaces, entities decoded. */
function textOfHtml(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->|<(head|style|script)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (entity, name: string) => {
      const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : name.startsWith('#') ? Number(name.slice(1)) : undefined;
      if (code === undefined) return ENTITIES[name.toLowerCase()] ?? entity;
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** A parsed email as mail-parsing services post it: from ("Name <address>"), to, subject, text or html. Its attachments, posted as files, are not kept. */
export function emailInquiry(posted: Fields) {
  const from = text(posted.from) ?? '';
  const [, name, address] = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from) ?? [undefined, undefined, from];
  const body = text(posted.text) ?? textOfHtml(text(posted.html) ?? '');
  return {
    source: 'EMAIL',
    lead: { email: text(address), name: text(name) },
    data: { subject: text(posted.subject) ?? '', from, to: text(posted.to) ?? '', body, receivedAt: now() },
  };
}

import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { hashToken, sameSecret } from '../../shared/auth/tokens';
import type { InboundEndpointRecord } from './entity';
import { ApiError, NotFoundError, PayloadTooLargeError, ValidationError } from '../../shared/errors';
import { Answer, EmptyAnswer } from '../../shared/http/answer';
import { parseMultipart } from '../../shared/http/multipart';
import { newId, now } from '../../shared/ids';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../shared/json-depth';
import { createInboundEndpoint, findInboundEndpoint, getInboundEndpoint, INBOUND_ENDPOINT_NOT_FOUND, InboundEndpointMoved, replaceInboundCredentials, updateInboundEndpoint } from './store';
import { InboundEndpoint, isCallPlatform, MAX_CALL_PLATFORM_BYTES, MAX_FORM_WITH_FILES_BYTES, MAX_INBOUND_BYTES, type CallPlatform, type InboundRepeat, type CreateInboundEndpointBody, type InboundEndpointChanges, type InboundFormat } from './schema';
import { platformCallInquiry, platformFieldOf, retellSignatureValid, vapiSecretValid } from './call-platforms';
import { validationDetails } from '../../shared/validation';
import { IngestInquiryBody } from '../inquiries/ingestion-schema';
import { looksLikePhone } from '../../shared/phone';
import { readPhone } from '../leads/phones';
import { GATEWAY_RESPONSES } from '../../shared/http/gateway-responses';
import { PREFLIGHT_HEADERS } from '../../shared/http/cors';
import { newSigningSecret, signedHeaders } from '../../shared/signed-posts';
import { ingestInquiry } from '../inquiries/ingestion';
import type { InquiryListItem } from '../inquiries/schema';

/** A Standard Webhooks signature older or newer than this is refused (replays). */
const TOLERANCE_SECONDS = 5 * 60;

const TOKEN_PREFIX = 'inb_';
const newToken = () => TOKEN_PREFIX + randomBytes(24).toString('base64url');

/** The endpoint as the API shows it: the fields of its schema, never the token's hash nor the secret. */
export const publicEndpoint = (endpoint: InboundEndpointRecord): InboundEndpoint => v.parse(InboundEndpoint, endpoint);

/** A redirect URL as the URL parser writes it (what a browser would be sent to), so a read shows exactly that. */
const normalizedUrl = (url: string | null | undefined) => (url ? new URL(url).href : url);

/** The settings as stored: redirect URLs written as the URL parser writes them. */
function settingsOf<T extends { redirectUrl?: string | null; errorRedirectUrl?: string | null }>(settings: T): T {
  return {
    ...settings,
    ...(settings.redirectUrl !== undefined ? { redirectUrl: normalizedUrl(settings.redirectUrl) } : {}),
    ...(settings.errorRedirectUrl !== undefined ? { errorRedirectUrl: normalizedUrl(settings.errorRedirectUrl) } : {}),
  };
}

const urlOf = (baseUrl: string, id: string, token: string) => `${baseUrl}/v1/inbound/${id}?token=${token}`;

/** The settings one rule spans: how posts are read, and the key Retell signs with. */
interface FormatSettings {
  source: string;
  format: InboundFormat;
  platformSecret?: string | undefined;
}

/**
 * Whether the settings hold together: a voice platform's format only on an endpoint of source CALL (its posts are
 * calls), Retell's with the API key it signs with, and that key only with Retell's format (Vapi sends the endpoint's
 * own secret). Refused as a 400 naming the field the request sent: `source` when it changed alone, else `format`.
 */
function refuseUnlessCoherent(settings: FormatSettings, sent: Partial<Record<keyof FormatSettings, unknown>>): void {
  const refuse = (path: string, message: string) => {
    throw new ValidationError([{ path, message }]);
  };
  if (isCallPlatform(settings.format) && settings.source !== 'CALL') {
    refuse(sent.source !== undefined && sent.format === undefined ? 'source' : 'format', `format ${settings.format} takes the platform’s post-call webhook, so it is only for endpoints of source CALL`);
  }
  if (settings.format === 'retell' && !settings.platformSecret) refuse('platformSecret', 'platformSecret is required with format retell: the Retell API key (with the webhook badge) that signs its webhooks');
  if (settings.platformSecret && settings.format !== 'retell') refuse('platformSecret', 'platformSecret is only for format retell (Vapi sends the endpoint’s own secret)');
}

/** An endpoint, answered once with its URL (holding the token, stored only hashed) and its signing secret. */
export async function createEndpoint(organizationId: string, body: CreateInboundEndpointBody, baseUrl: string) {
  refuseUnlessCoherent(body, body);
  const token = newToken();
  const at = now();
  const endpoint: InboundEndpointRecord = { id: newId('inbound'), ...settingsOf(body), createdAt: at, updatedAt: at, organizationId, tokenHash: hashToken(token), secret: newSigningSecret() };
  await createInboundEndpoint(endpoint);
  return { ...publicEndpoint(endpoint), url: urlOf(baseUrl, endpoint.id, token), secret: endpoint.secret };
}

/** One endpoint as the list shows it: never the token's hash nor the secret. */
export async function readEndpoint(organizationId: string, endpointId: string): Promise<InboundEndpoint> {
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
  return publicEndpoint(endpoint);
}

/** How many times a change of source or format is read and written again when another such change came between. */
const MOVED_ATTEMPTS = 3;

/**
 * Its settings changed in place: the same id, so the same URL, token and secret. A change of source, format or
 * platformSecret is checked on the endpoint as it will be (read first), and written only while source and format are
 * still as read; a format other than `retell` drops Retell's key.
 */
export async function changeEndpoint(organizationId: string, endpointId: string, changes: InboundEndpointChanges): Promise<InboundEndpoint> {
  const settings = settingsOf(changes);
  if (changes.source === undefined && changes.format === undefined && changes.platformSecret === undefined) {
    return publicEndpoint(await updateInboundEndpoint(organizationId, endpointId, settings));
  }
  for (let attempt = 1; ; attempt++) {
    const stored = await getInboundEndpoint(organizationId, endpointId);
    if (!stored) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
    const format = changes.format ?? stored.format;
    const platformSecret = changes.platformSecret ?? (format === 'retell' ? stored.platformSecret : undefined);
    refuseUnlessCoherent({ source: changes.source ?? stored.source, format, platformSecret }, changes);
    const readAs = { source: stored.source, format: stored.format, removePlatformSecret: format !== 'retell' && stored.platformSecret !== undefined };
    try {
      return publicEndpoint(await updateInboundEndpoint(organizationId, endpointId, settings, readAs));
    } catch (error) {
      if (!(error instanceof InboundEndpointMoved) || attempt === MOVED_ATTEMPTS) throw error;
    }
  }
}

/** A new token and secret; the old ones stop working at once. */
export async function rotateEndpoint(organizationId: string, endpointId: string, baseUrl: string) {
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
  const token = newToken();
  const secret = newSigningSecret();
  const updatedAt = await replaceInboundCredentials(organizationId, endpointId, { tokenHash: hashToken(token), secret });
  return { ...publicEndpoint({ ...endpoint, updatedAt }), url: urlOf(baseUrl, endpointId, token), secret };
}

/**
 * The gateway's own 401 body, word for word (GATEWAY_RESPONSES.UNAUTHORIZED): an unknown endpoint is refused by
 * the gateway's inbound authorizer before this runs, and a wrong token must answer exactly alike, so that ids
 * cannot be probed.
 */
const unauthorized = () => Object.assign(new ApiError(401, GATEWAY_RESPONSES.UNAUTHORIZED.message), { headers: GATEWAY_RESPONSES.UNAUTHORIZED.headers });

const tokenMatches = (endpoint: InboundEndpointRecord, token: string) => sameSecret(hashToken(token), endpoint.tokenHash);

/**
 * The platform's own proof for a voice platform's format (Retell's signature with its API key, Vapi's credential
 * holding the endpoint's secret), and nothing else: a token in the URL is neither needed nor enough. Otherwise the
 * `token` query parameter, or Standard Webhooks headers signed with the endpoint's secret within 5 minutes.
 */
function authenticate(endpoint: InboundEndpointRecord, token: string | undefined, headers: Record<string, string>, body: string): void {
  if (endpoint.format === 'retell') {
    if (!retellSignatureValid(endpoint.platformSecret, headers['x-retell-signature'], body)) throw unauthorized();
    return;
  }
  if (endpoint.format === 'vapi') {
    if (!vapiSecretValid(endpoint.secret, headers)) throw unauthorized();
    return;
  }
  if (token !== undefined) {
    if (!tokenMatches(endpoint, token)) throw unauthorized();
    return;
  }
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) throw unauthorized();
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) throw unauthorized();
  const expected = signedHeaders([endpoint.secret], { id, timestamp: Number(timestamp), body })['webhook-signature']!;
  if (!signatures.split(' ').some((signature) => sameSecret(signature, expected))) throw unauthorized();
}

/**
 * Field name → value with no prototype: a field named constructor, toString or __proto__ is just a name,
 * never a member of Object.prototype read back as a value, nor a prototype set by assigning it.
 */
type Fields = Record<string, unknown>;
const emptyFields = (): Fields => Object.create(null) as Fields;

/** A field posted again under the same name (checkboxes) joins the first: `a, b`. */
const addField = (fields: Fields, name: string, value: string) => {
  fields[name] = Object.hasOwn(fields, name) ? `${String(fields[name])}, ${value}` : value;
};

const mediaTypeOf = (headers: Record<string, string>) => (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** What an HTML form posts: its visitor's browser is the sender, so a redirect can answer it. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

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
function postedOf(headers: Record<string, string>, body: string): Posted {
  const type = mediaTypeOf(headers);
  if (type === 'multipart/form-data') return multipartFields(headers['content-type']!, body);
  return { fields: fieldsOf(type, body), droppedFiles: [] };
}

/** A body of a media type that carries no files: JSON (an object) or urlencoded. Any other is 415. */
function fieldsOf(type: string, body: string): Fields {
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
function senderIdOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string') return text(value);
  throw new ValidationError([{ path: 'externalInquiryId', message: 'externalInquiryId must be a string or an integer' }]);
}

/** Fields that steer the inquiry rather than being part of the submission. */
const CONTROL_FIELDS = new Set(['externalInquiryId', 'formName', 'pageUrl']);

/** A web form: every field kept, the lead from email/phone/name (renamed through the endpoint's fieldMap). */
async function webformInquiry(endpoint: InboundEndpointRecord, posted: Fields, droppedFiles: string[]) {
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
function emailInquiry(posted: Fields) {
  const from = text(posted.from) ?? '';
  const [, name, address] = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from) ?? [undefined, undefined, from];
  const body = text(posted.text) ?? textOfHtml(text(posted.html) ?? '');
  return {
    source: 'EMAIL',
    lead: { email: text(address), name: text(name) },
    data: { subject: text(posted.subject) ?? '', from, to: text(posted.to) ?? '', body, receivedAt: now() },
  };
}

/** `url` with `name=value` added to its query, keeping the query it has (and its fragment after it). */
function withQueryParameter(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${name}=${encodeURIComponent(value)}${fragment}`;
}

const redirectTo = (location: string, headers: Record<string, string>) => new EmptyAnswer(303, { ...headers, location });

/**
 * The CORS headers of an answer to a browser on another site: only for an origin the endpoint lists, compared
 * exactly as the browser sent it, so `https://shop.example.com.evil.net` or another port is not it. None otherwise.
 */
function corsHeaders(endpoint: InboundEndpointRecord, origin: string | undefined): Record<string, string> {
  if (!origin || !endpoint.allowedOrigins.includes(origin)) return {};
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/**
 * The answer to a browser's CORS preflight (OPTIONS) of a post: 204, and for an allowed origin asking to POST, the
 * headers that let it (Content-Type for JSON, Idempotency-Key for retries). The URL's token must be valid, as on
 * the post itself, else 401 as an unknown endpoint answers: a preflight must not tell which ids exist.
 */
export async function answerPreflight(endpointId: string, token: string | undefined, headers: Record<string, string>): Promise<EmptyAnswer> {
  const endpoint = await findInboundEndpoint(endpointId);
  if (!endpoint || token === undefined || !tokenMatches(endpoint, token)) throw unauthorized();
  const cors = headers['access-control-request-method'] === 'POST' ? corsHeaders(endpoint, headers.origin) : {};
  if (!cors['access-control-allow-origin']) return new EmptyAnswer(204);
  return new EmptyAnswer(204, { ...cors, ...PREFLIGHT_HEADERS });
}

/**
 * A filled honeypot's answer: what a recorded post is answered, with ids of the right form that name nothing, so the
 * bot that filled it cannot tell it was not recorded.
 */
function unrecordedInquiry(endpoint: InboundEndpointRecord): { inquiry: InquiryListItem; created: boolean } {
  const at = now();
  const sourceId = newId(endpoint.source === 'WEBFORM' ? 'webform' : endpoint.source === 'EMAIL' ? 'email' : endpoint.source === 'CALL' ? 'call' : 'chat');
  return { inquiry: { id: newId('inquiry'), source: endpoint.source, tag: 'GENERAL', summary: '', isFirstInquiry: true, isRead: false, leadId: newId('lead'), createdAt: at, updatedAt: at, sourceId }, created: true };
}

/**
 * Refused unless the post comes from a page on one of the endpoint's allowedOrigins, when it enforces them. A post
 * without Origin is refused too: every browser sends it with a POST, so only a script leaves it out.
 */
function refuseForeignOrigin(endpoint: InboundEndpointRecord, origin: string | undefined): void {
  if (!endpoint.enforceOrigin || (origin !== undefined && endpoint.allowedOrigins.includes(origin))) return;
  throw new ApiError(403, origin === undefined ? 'Posts to this endpoint must come from a page on one of its allowedOrigins: this one has no Origin header' : `Posts to this endpoint must come from a page on one of its allowedOrigins, not ${origin}`, 'ORIGIN_NOT_ALLOWED');
}

/** The post's fields, shaped by the endpoint's source and ingested as POST /v1/inquiries would. */
async function ingestPost(endpoint: InboundEndpointRecord, headers: Record<string, string>, raw: string) {
  const isMultipart = mediaTypeOf(headers) === 'multipart/form-data';
  // A form's files are dropped rather than refused, so a form with one may be larger; its text fields alone are not.
  const limit = isMultipart ? MAX_FORM_WITH_FILES_BYTES : MAX_INBOUND_BYTES;
  if (Buffer.byteLength(raw) > limit) throw new PayloadTooLargeError(limit);
  const { fields: posted, droppedFiles } = postedOf(headers, raw);
  if (isMultipart && Buffer.byteLength(JSON.stringify(posted)) > MAX_INBOUND_BYTES) throw new PayloadTooLargeError(MAX_INBOUND_BYTES);
  const honeypot = endpoint.honeypotField ? posted[endpoint.honeypotField] : undefined;
  if (honeypot !== undefined && honeypot !== null && honeypot !== '') return unrecordedInquiry(endpoint);
  const shaped =
    endpoint.source === 'WEBFORM' ? await webformInquiry(endpoint, posted, droppedFiles) : endpoint.source === 'EMAIL' ? emailInquiry(posted) : { ...posted, source: endpoint.source };
  const postedId = senderIdOf(posted.externalInquiryId);
  const externalInquiryId = postedId ?? headers['webhook-id'] ?? headers['idempotency-key'];
  // An id a header carried is named as that header when refused: the sender sent no field of that name.
  const idSentAs = postedId !== undefined ? 'externalInquiryId' : headers['webhook-id'] !== undefined ? 'webhook-id' : 'Idempotency-Key';
  const candidate = JSON.parse(JSON.stringify({ ...shaped, ...(externalInquiryId ? { externalInquiryId } : {}) })) as unknown;
  const parsed = v.safeParse(IngestInquiryBody, candidate);
  if (!parsed.success) {
    throw new ValidationError(
      parsed.issues.map((issue) => {
        const path = v.getDotPath(issue) ?? 'body';
        return path === 'externalInquiryId' && idSentAs !== path ? { path: idSentAs, message: issue.message.replace(/^externalInquiryId/, idSentAs) } : { path, message: issue.message };
      }),
    );
  }
  // Posted to a URL anyone with the page may post to: a repeat of an id is answered only to the sender that made it.
  return ingestInquiry(endpoint.organizationId, parsed.output, { publicEndpointId: endpoint.id });
}

/** A refusal of the inquiry made from a platform's webhook, reworded to name the field the platform sent. */
function platformDetail(fields: Record<string, string>, path: string, message: string) {
  const field = platformFieldOf(fields, path);
  if (field === path) return { path, message };
  const named = [path, path.split('.').at(-1)!].find((name) => message.startsWith(`${name} `));
  return { path: field, message: named ? field + message.slice(named.length) : `${field}: ${message}` };
}

/**
 * A voice platform's webhook, already verified: its post-call event records a CALL inquiry (201), a redelivery of the
 * same call answers 200 with its ids, and any other event is acknowledged with 204 and records nothing, so the platform
 * neither retries it nor counts it a failure. JSON only, up to MAX_CALL_PLATFORM_BYTES: a long call's payload carries
 * its transcript several times over, with word timings.
 */
async function receivePlatformCall(endpoint: InboundEndpointRecord, platform: CallPlatform, headers: Record<string, string>, raw: string) {
  if (Buffer.byteLength(raw) > MAX_CALL_PLATFORM_BYTES) throw new PayloadTooLargeError(MAX_CALL_PLATFORM_BYTES);
  if (mediaTypeOf(headers) !== 'application/json') throw new ApiError(415, 'Send the platform’s webhook as it sends it: application/json', 'UNSUPPORTED_MEDIA_TYPE');
  const call = platformCallInquiry(platform, fieldsOf('application/json', raw));
  if (!call) return new EmptyAnswer(204);
  const parsed = v.safeParse(IngestInquiryBody, call.inquiry);
  // Refused naming the platform's field: the sender sent `call.start_timestamp`, never our `createdAt`.
  if (!parsed.success) throw new ValidationError(validationDetails(parsed.issues, 'body').map(({ path, message }) => platformDetail(call.fields, path, message)));
  return answerOf(await ingestInquiry(endpoint.organizationId, parsed.output));
}

/**
 * What a post is answered: 201 with the inquiry it recorded, from what it sent; a repeat of its id, 200 with the ids
 * alone (InboundRepeat), never what the first post recorded, which may be another visitor's.
 */
function answerOf({ inquiry, created }: { inquiry: InquiryListItem; created: boolean }, headers: Record<string, string> = {}) {
  if (created) return new Answer(201, { inquiry }, headers);
  const repeat: InboundRepeat = { inquiry: { id: inquiry.id, leadId: inquiry.leadId }, created: false };
  // The route's 200 has its own schema (routes.ts, responses); the handler's type is that of its 201.
  return new Answer(200, repeat as unknown as { inquiry: InquiryListItem }, headers);
}

/**
 * A post to an inbound endpoint: authenticated by token or signature (else 401, nothing recorded, answered as an
 * unknown endpoint is: never redirected, no CORS headers), read as JSON or a form, shaped by the endpoint's source
 * and ingested as POST /v1/inquiries would. A repeat of the sender's id (externalInquiryId, or the webhook-id /
 * Idempotency-Key header) answers the first inquiry's ids. A form post (a visitor's browser) is answered 303 to the
 * endpoint's redirectUrl with `inquiryId`, and when refused, to its errorRedirectUrl with `error=<code>`; JSON posts
 * are answered JSON. A browser on an allowed origin gets the CORS headers with whatever it is answered. An endpoint
 * enforcing its origins refuses any other (403, a refusal like the rest); a post filling its honeypot is answered as
 * recorded and records nothing.
 */
export async function receiveInbound(endpointId: string, token: string | undefined, headers: Record<string, string>, body: string | null) {
  const endpoint = await findInboundEndpoint(endpointId);
  if (!endpoint) throw unauthorized();
  const raw = body ?? '';
  authenticate(endpoint, token, headers, raw);
  if (isCallPlatform(endpoint.format)) return receivePlatformCall(endpoint, endpoint.format, headers, raw);
  const cors = corsHeaders(endpoint, headers.origin);
  const isForm = FORM_TYPES.has(mediaTypeOf(headers));
  try {
    refuseForeignOrigin(endpoint, headers.origin);
    const { inquiry, created } = await ingestPost(endpoint, headers, raw);
    // The inquiry's id alone, a repeat's too: the redirect carries nothing that was recorded.
    if (isForm && endpoint.redirectUrl) return redirectTo(withQueryParameter(endpoint.redirectUrl, 'inquiryId', inquiry.id), cors);
    return answerOf({ inquiry, created }, cors);
  } catch (error) {
    // The sender's faults only (4xx): after a 5xx the inquiry may be recorded all the same, so it is not called a refusal.
    if (!(error instanceof ApiError)) throw error;
    if (isForm && endpoint.errorRedirectUrl && error.status < 500) return redirectTo(withQueryParameter(endpoint.errorRedirectUrl, 'error', error.code ?? 'BAD_REQUEST'), cors);
    error.headers = cors;
    throw error;
  }
}

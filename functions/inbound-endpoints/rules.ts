import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { hashToken } from '../../shared/auth/tokens';
import type { InboundEndpointRecord } from './entity';
import { ApiError, NotFoundError, PayloadTooLargeError, ValidationError } from '../../shared/errors';
import { newId, now } from '../../shared/ids';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../shared/json-depth';
import { createInboundEndpoint, findInboundEndpoint, getInboundEndpoint, INBOUND_ENDPOINT_NOT_FOUND, replaceInboundCredentials, updateInboundEndpoint } from './store';
import { MAX_INBOUND_BYTES, type CreateInboundEndpointBody, type InboundEndpoint, type InboundEndpointChanges } from './schema';
import { IngestInquiryBody } from '../inquiries/ingestion-schema';
import { E164 } from '../../shared/schema';
import { newSigningSecret, signedHeaders } from '../../shared/webhooks/signature';
import { ingestInquiry } from '../inquiries/ingestion';

/** A Standard Webhooks signature older or newer than this is refused (replays). */
const TOLERANCE_SECONDS = 5 * 60;

const TOKEN_PREFIX = 'inb_';
const newToken = () => TOKEN_PREFIX + randomBytes(24).toString('base64url');

export const publicEndpoint = ({ id, name, source, fieldMap, createdAt, updatedAt }: InboundEndpointRecord): InboundEndpoint => ({ id, name, source, fieldMap, createdAt, updatedAt });

const urlOf = (baseUrl: string, id: string, token: string) => `${baseUrl}/v1/inbound/${id}?token=${token}`;

/** An endpoint, answered once with its URL (holding the token, stored only hashed) and its signing secret. */
export async function createEndpoint(organizationId: string, body: CreateInboundEndpointBody, baseUrl: string) {
  const token = newToken();
  const at = now();
  const endpoint: InboundEndpointRecord = { id: newId('inbound'), name: body.name, source: body.source, fieldMap: body.fieldMap, createdAt: at, updatedAt: at, organizationId, tokenHash: hashToken(token), secret: newSigningSecret() };
  await createInboundEndpoint(endpoint);
  return { ...publicEndpoint(endpoint), url: urlOf(baseUrl, endpoint.id, token), secret: endpoint.secret };
}

/** One endpoint as the list shows it: never the token's hash nor the secret. */
export async function readEndpoint(organizationId: string, endpointId: string): Promise<InboundEndpoint> {
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
  return publicEndpoint(endpoint);
}

/** Its settings changed in place: the same id, so the same URL, token and secret. */
export async function changeEndpoint(organizationId: string, endpointId: string, changes: InboundEndpointChanges): Promise<InboundEndpoint> {
  return publicEndpoint(await updateInboundEndpoint(organizationId, endpointId, changes));
}

/** A new token and secret; the old ones stop working at once. */
export async function rotateEndpoint(organizationId: string, endpointId: string, baseUrl: string) {
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
  const token = newToken();
  const secret = newSigningSecret();
  await replaceInboundCredentials(organizationId, endpointId, { tokenHash: hashToken(token), secret });
  return { ...publicEndpoint(endpoint), url: urlOf(baseUrl, endpointId, token), secret };
}

/**
 * The gateway's own 401 body, word for word (GATEWAY_RESPONSES.UNAUTHORIZED): an unknown endpoint is refused by
 * the gateway's inbound authorizer before this runs, and a wrong token must answer exactly alike, so that ids
 * cannot be probed.
 */
const unauthorized = () => new ApiError(401, 'Invalid or expired token');

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The `token` query parameter, or Standard Webhooks headers signed with the endpoint's secret within 5 minutes. */
function authenticate(endpoint: InboundEndpointRecord, token: string | undefined, headers: Record<string, string>, body: string): void {
  if (token !== undefined) {
    if (!sameText(hashToken(token), endpoint.tokenHash)) throw unauthorized();
    return;
  }
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) throw unauthorized();
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) throw unauthorized();
  const expected = signedHeaders([endpoint.secret], { id, timestamp: Number(timestamp), body })['webhook-signature']!;
  if (!signatures.split(' ').some((signature) => sameText(signature, expected))) throw unauthorized();
}

/**
 * Field name → value with no prototype: a field named constructor, toString or __proto__ is just a name,
 * never a member of Object.prototype read back as a value, nor a prototype set by assigning it.
 */
type Fields = Record<string, unknown>;
const emptyFields = (): Fields => Object.create(null) as Fields;

/** The posted body as name → value: JSON (an object) or an HTML form's urlencoded fields. Anything else is 415. */
function fieldsOf(headers: Record<string, string>, body: string): Fields {
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    const fields = emptyFields();
    for (const [name, value] of new URLSearchParams(body)) fields[name] = Object.hasOwn(fields, name) ? `${String(fields[name])}, ${value}` : value;
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
  throw new ApiError(415, 'Send application/json or application/x-www-form-urlencoded', 'UNSUPPORTED_MEDIA_TYPE');
}

/** Formatting people type in phone numbers; what remains must be E.164 to find a lead by. */
const phoneOf = (value: unknown) => {
  const phone = typeof value === 'string' ? value.replace(/[\s().-]/g, '') : '';
  return E164.test(phone) ? phone : undefined;
};
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** Fields that steer the inquiry rather than being part of the submission. */
const CONTROL_FIELDS = new Set(['externalInquiryId', 'formName', 'pageUrl']);

/** A web form: every field kept, the lead from email/phone/name (renamed through the endpoint's fieldMap). */
function webformInquiry(endpoint: InboundEndpointRecord, posted: Fields) {
  const fieldMap = endpoint.fieldMap ?? {};
  const named = emptyFields();
  for (const [field, value] of Object.entries(posted)) named[Object.hasOwn(fieldMap, field) ? fieldMap[field]! : field] = value;
  const fields = Object.entries(posted)
    .filter(([name]) => !CONTROL_FIELDS.has(name))
    .map(([name, value]) => ({ name, label: name, value: typeof value === 'string' ? value : JSON.stringify(value) }));
  const message = text(named.message) ?? fields.find((field) => field.value.length >= 40)?.value;
  return {
    source: 'WEBFORM',
    lead: { email: text(named.email), phone: phoneOf(named.phone), name: text(named.name), firstName: text(named.firstName), lastName: text(named.lastName) },
    summary: message && [...message.replace(/\s+/g, ' ')].slice(0, 1000).join(''),
    data: { formName: text(posted.formName) ?? endpoint.name, fields, submittedAt: now(), pageUrl: text(posted.pageUrl) ?? null },
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

/** A parsed email as mail-parsing services post it: from ("Name <address>"), to, subject, text or html. */
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

/**
 * A post to an inbound endpoint: authenticated by token or signature (else 401, nothing recorded), read as
 * JSON or a form, shaped by the endpoint's source and ingested as POST /v1/inquiries would. A repeat of the
 * sender's id (externalInquiryId, or the webhook-id / Idempotency-Key header) answers the first inquiry.
 */
export async function receiveInbound(endpointId: string, token: string | undefined, headers: Record<string, string>, body: string | null) {
  const endpoint = await findInboundEndpoint(endpointId);
  if (!endpoint) throw unauthorized();
  const raw = body ?? '';
  if (Buffer.byteLength(raw) > MAX_INBOUND_BYTES) throw new PayloadTooLargeError(MAX_INBOUND_BYTES);
  authenticate(endpoint, token, headers, raw);
  const posted = fieldsOf(headers, raw);
  const shaped = endpoint.source === 'WEBFORM' ? webformInquiry(endpoint, posted) : endpoint.source === 'EMAIL' ? emailInquiry(posted) : { ...posted, source: endpoint.source };
  const externalInquiryId = text(posted.externalInquiryId) ?? headers['webhook-id'] ?? headers['idempotency-key'];
  const candidate = JSON.parse(JSON.stringify({ ...shaped, ...(externalInquiryId ? { externalInquiryId } : {}) })) as unknown;
  const parsed = v.safeParse(IngestInquiryBody, candidate);
  if (!parsed.success) throw new ValidationError(parsed.issues.map((issue) => ({ path: v.getDotPath(issue) ?? 'body', message: issue.message })));
  return ingestInquiry(endpoint.organizationId, parsed.output);
}

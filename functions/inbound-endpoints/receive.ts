import * as v from 'valibot';
import { ApiError, PayloadTooLargeError, ValidationError } from '#shared/errors';
import { Answer, EmptyAnswer } from '#shared/http/answer';
import { newId, now } from '#shared/ids';
import { validationDetails } from '#shared/validation';
import { ingestInquiry } from '../inquiries/ingestion';
import { IngestInquiryBody } from '../inquiries/ingestion-schema';
import type { InquiryListItem } from '../inquiries/schema';
import { authenticate, unauthorized } from './auth';
import { platformCallInquiry, platformFieldOf } from './call-platforms';
import { corsHeaders, refuseForeignOrigin } from './cors';
import type { InboundEndpointRecord } from './entity';
import { emailInquiry, fieldsOf, FORM_TYPES, mediaTypeOf, postedOf, senderIdOf, webformInquiry } from './forms';
import { isCallPlatform, MAX_CALL_PLATFORM_BYTES, MAX_FORM_WITH_FILES_BYTES, MAX_INBOUND_BYTES, type CallPlatform, type InboundRepeat } from './schema';
import { getInboundEndpoint } from './store';

/** `url` with `name=value` added to its query, keeping the query it has (and its fragment after it). */
function withQueryParameter(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${name}=${encodeURIComponent(value)}${fragment}`;
}

const redirectTo = (location: string, headers: Record<string, string>) => new EmptyAnswer(303, { ...headers, location });

/**
 * A filled honeypot's answer: what a recorded post is answered, with ids of the right form that name nothing, so the
 * bot that filled it cannot tell it was not recorded.
 */
function unrecordedInquiry(endpoint: InboundEndpointRecord): { inquiry: InquiryListItem; created: boolean } {
  const at = now();
  const sourceId = newId(endpoint.source === 'WEBFORM' ? 'webform' : endpoint.source === 'EMAIL' ? 'email' : endpoint.source === 'CALL' ? 'call' : 'chat');
  return { inquiry: { id: newId('inquiry'), source: endpoint.source, tag: 'GENERAL', summary: '', callOutcome: endpoint.source === 'CALL' ? 'ANSWERED' : null, isFirstInquiry: true, isRead: false, leadId: newId('lead'), createdAt: at, updatedAt: at, sourceId }, created: true };
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
  const call = await platformCallInquiry(platform, fieldsOf('application/json', raw));
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
export async function receiveInbound(organizationId: string, endpointId: string, token: string | undefined, headers: Record<string, string>, body: string | null) {
  // The organization is the one the gateway's authorizer found the endpoint in; deleted since, the post is refused.
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint) throw unauthorized();
  const raw = body ?? '';
  await authenticate(endpoint, token, headers, raw);
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

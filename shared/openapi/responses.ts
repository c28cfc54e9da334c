import { STATUS_CODES } from 'node:http';
import type * as v from 'valibot';
import { someScopeRefuses } from '../auth/scopes';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '../http/gateway-responses';
import { errorEnvelope } from '../http/envelope';
import { CSRF_HEADER, csrfRefused, sessionRequired } from '../http/member-session';
import { STORE_UNAVAILABLE_MESSAGE, type ApiError } from '../errors';
import { keyReused } from '../http/idempotency';
import { authorizerOf, isIdempotent, readsBody, takesJsonBody, writesRecords, type ResponseDoc, type RouteDefinition } from '../routes/route';
import { badRequestExample, notFoundExample, type ErrorExample } from './error-examples';
import { convert } from './json-schema';
import { prose } from '../prose';

// The document's responses: each operation's statuses, the errors many share (components.responses), and their examples.

export const JSON_MEDIA_TYPE = 'application/json';

export type Json = Record<string, unknown>;

/** Named schemas by name, as the document refers to them. */
type Components = Readonly<Record<string, v.GenericSchema>>;

/**
 * Error responses shared by many operations. The 400's, 404's and 409's examples differ by operation (each names
 * what that operation takes), so they are the operation's own, not the shared response's.
 */
export interface SharedError {
  name: string;
  description: string;
  example?: unknown;
  otherExamples?: Record<string, unknown>;
  headers?: Json;
}

export const SHARED_ERRORS: Record<number, SharedError> = {
  400: {
    name: 'BadRequest',
    description: 'A path, query or body value failed validation, a query parameter the operation does not take was sent, or the body is not valid JSON. The message names the field or parameter.',
  },
  401: {
    name: 'Unauthorized',
    description: 'The bearer token is missing, invalid or expired.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED),
    headers: {
      'WWW-Authenticate': {
        description: prose`
          The scheme to authenticate with, \`Bearer realm="sales-pipeline"\`; from the gateway, also where the
          protected resource’s metadata is (RFC 9728) and the scope to ask for: \`, resource_metadata="<its URL>",
          scope="read"\`.
        `,
        schema: { type: 'string', pattern: `^${GATEWAY_RESPONSES.UNAUTHORIZED.headers['WWW-Authenticate']}(, resource_metadata="[^"]+", scope="read")?$` },
      },
    },
  },
  404: {
    name: 'NotFound',
    description: 'No such record in the caller’s organization (a record of another organization is not found either), or no such route.',
  },
  409: {
    name: 'Conflict',
    description: prose`
      A conflict with the organization’s records (a name or label already used, an attendee already booked), the
      record changed by other requests at the same time as often as the write was retried (CONFLICT: the change was
      not written; a retry, with the same Idempotency-Key too, runs again), or an Idempotency-Key used for another
      request (IDEMPOTENCY_KEY_REUSED) or still in progress (IDEMPOTENCY_IN_PROGRESS).
    `,
  },
  413: {
    name: 'RequestTooLarge',
    description: 'The request body is larger than 256 KB (PAYLOAD_TOO_LARGE), or than the gateway accepts.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.REQUEST_TOO_LARGE),
  },
  415: {
    name: 'UnsupportedMediaType',
    description: prose`
      UNSUPPORTED_MEDIA_TYPE: the request has a body and its \`Content-Type\` is not \`application/json\` (a
      \`charset\` may follow; the body is read as UTF-8), or it has none. Nothing ran. A request without a body needs no
      \`Content-Type\`.
    `,
    example: errorEnvelope(415, 'This operation takes a JSON body: send Content-Type: application/json, not "text/plain"', 'UNSUPPORTED_MEDIA_TYPE'),
  },
  429: {
    name: 'TooManyRequests',
    description:
      'RATE_LIMITED: the organization’s usage plan was exceeded, either its requests per second and burst or its daily quota (renewed at 00:00 UTC). Wait the Retry-After seconds before retrying.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.THROTTLED),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } },
  },
  500: {
    name: 'InternalError',
    description: 'An unexpected error; nothing internal is disclosed.',
    example: errorEnvelope(500, 'Internal server error', 'INTERNAL_ERROR'),
  },
  503: {
    name: 'AuthorizerUnavailable',
    description: prose`
      Not the caller’s fault. AUTHORIZER_UNAVAILABLE: the gateway could not check the request’s credential (the API key,
      or an inbound URL’s endpoint) because their store could not be read; nothing ran: retry. STORE_UNAVAILABLE: the
      store timed out or was throttled, so the outcome is unknown: retry after the Retry-After seconds, with the same
      Idempotency-Key where the operation takes one, and the retry answers what the first request did (its records
      written once, with the same ids). SERVICE_UNAVAILABLE from the gateway: the operation was at its concurrency;
      nothing ran: retry after the Retry-After seconds.
    `,
    example: gatewayResponseBody(GATEWAY_RESPONSES.AUTHORIZER_FAILURE),
    otherExamples: { StoreUnavailable: errorEnvelope(503, STORE_UNAVAILABLE_MESSAGE, 'STORE_UNAVAILABLE') },
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying (STORE_UNAVAILABLE, SERVICE_UNAVAILABLE).', schema: { type: 'string' } } },
  },
  504: {
    name: 'Timeout',
    description:
      'TIMEOUT: the operation did not answer within the gateway’s 29-second integration timeout. It may have taken effect: retry a POST or PATCH with the same Idempotency-Key to get its answer rather than run it twice.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.INTEGRATION_TIMEOUT),
  },
};

/** A shared error's examples: its own, under its name, and any others. */
export const sharedExamples = ({ name, example, otherExamples }: SharedError): Examples =>
  examplesObject({ ...(example === undefined ? {} : { [name]: example }), ...otherExamples });

/**
 * Whether a keyed route takes a member's session, whose cookie the edge makes the bearer token
 * (functions/sign-in/edge/viewer-request.js): every one but the MCP server's, whose tokens are OAuth's.
 */
export const takesSession = (route: RouteDefinition) => route.auth !== 'none' && !route.tokenAudience;

/** The codes a keyed route's caller may be refused with (403). */
export type ForbiddenCode = 'SESSION_REQUIRED' | 'INSUFFICIENT_SCOPE' | 'CSRF_TOKEN_REQUIRED';

const envelopeOf = (error: ApiError) => errorEnvelope(error.status, error.message, error.code);

const FORBIDDEN: Record<ForbiddenCode, { name: string; sentence: string; example: unknown }> = {
  SESSION_REQUIRED: {
    name: 'SessionRequired',
    sentence: 'SESSION_REQUIRED: only a member’s session (its `__Host-session` cookie) calls this, or asks what the description says only a person may; an API key or token is refused, whatever its scope.',
    example: envelopeOf(sessionRequired()),
  },
  INSUFFICIENT_SCOPE: {
    name: 'InsufficientScope',
    sentence: prose`
      INSUFFICIENT_SCOPE: the API key’s scope does not allow this method (a \`read\` key may only GET; a \`write\` key
      may not DELETE; a \`full\` key may do everything), or, with a member’s session, the member’s role is below the one
      the operation needs (its \`x-session-role\`).
    `,
    example: gatewayResponseBody(GATEWAY_RESPONSES.ACCESS_DENIED),
  },
  CSRF_TOKEN_REQUIRED: {
    name: 'CsrfTokenRequired',
    sentence: `CSRF_TOKEN_REQUIRED: a member’s session changing something without the session’s \`${CSRF_HEADER}\` header (GET /v1/me answers it).`,
    example: envelopeOf(csrfRefused()),
  },
};

/**
 * The codes a keyed route may refuse its caller with, from its row: SESSION_REQUIRED to a key or token where only a
 * member's session calls (`sessionOnly`); INSUFFICIENT_SCOPE where some key's scope does not allow the method, or a
 * session may be below the route's role; CSRF_TOKEN_REQUIRED where a session may change something (any method but GET).
 */
export function forbiddenCodes(route: RouteDefinition): ForbiddenCode[] {
  if (route.auth === 'none') return [];
  const byRole = takesSession(route) && (route.sessionRole ?? 'MEMBER') !== 'MEMBER';
  return [
    ...(route.sessionOnly || route.sessionFor ? (['SESSION_REQUIRED'] as const) : []),
    ...(someScopeRefuses(route.method, route.path) || byRole ? (['INSUFFICIENT_SCOPE'] as const) : []),
    ...(takesSession(route) && route.method !== 'GET' ? (['CSRF_TOKEN_REQUIRED'] as const) : []),
  ];
}

/**
 * A keyed route's 403, shared by every route refusing with the same codes (a component named by them, `InsufficientScope`
 * or `InsufficientScopeOrCsrfTokenRequired`): a sentence and an example per code. None where the route refuses no caller.
 */
export function forbiddenOf(route: RouteDefinition): SharedError | undefined {
  const refusals = forbiddenCodes(route).map((code) => FORBIDDEN[code]);
  if (refusals.length === 0) return undefined;
  return {
    name: refusals.map(({ name }) => name).join('Or'),
    description: refusals.map(({ sentence }) => sentence).join(' '),
    otherExamples: Object.fromEntries(refusals.map(({ name, example }) => [name, example])),
  };
}

/** The 403 responses the routes refer to, one per set of codes, for components.responses. */
export function forbiddenResponses(routes: readonly RouteDefinition[]): SharedError[] {
  const byName = new Map<string, SharedError>();
  for (const forbidden of routes.map(forbiddenOf)) if (forbidden) byName.set(forbidden.name, forbidden);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export const envelopeRef = { $ref: '#/components/schemas/ErrorEnvelope' };

export const honoursIdempotencyKey = (route: RouteDefinition) => isIdempotent(route) && route.auth !== 'none';

const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** The Idempotency-Key header parameter, with what the API says a retry is answered. */
export const idempotencyParameter = (description: string): Json => ({
  name: IDEMPOTENCY_KEY,
  in: 'header',
  required: false,
  description,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
});

/** Sent with every replayed answer of an operation that honours Idempotency-Key, so a client can tell a replay. */
const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: '`true` when this is the kept answer to an earlier request with the same Idempotency-Key, sent again; absent on the first answer.',
    schema: { type: 'string', const: 'true' },
  },
};

/** The key the document's IDEMPOTENCY_KEY_REUSED example names. */
const EXAMPLE_IDEMPOTENCY_KEY = 'order-7f3a9c-create';

function mediaType(route: RouteDefinition): string {
  return (route.contentType ?? JSON_MEDIA_TYPE).split(';')[0]!.trim();
}

export function examplesObject(examples: Record<string, unknown>): Record<string, { value: unknown }> {
  return Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }]));
}

export function statusesOf(route: RouteDefinition): number[] {
  // Every operation refuses a query parameter it does not take (400), however few values it validates.
  const statuses = new Set([route.status, ...route.errors, ...Object.keys(route.responses ?? {}).map(Number), 400, 429, 500]);
  if (route.auth !== 'none') statuses.add(401);
  // A key whose scope does not allow the method, a key where only a session calls, a session below the route's role or
  // changing something without its CSRF token (forbiddenCodes).
  if (forbiddenCodes(route).length > 0) statuses.add(403);
  // A write that meets other requests' writes of the same records as often as it retries answers 409 CONFLICT.
  if (honoursIdempotencyKey(route) || writesRecords(route)) statuses.add(409);
  if (readsBody(route)) statuses.add(413);
  // A JSON body sent as another type (a form, text/plain) is refused before it is read.
  if (takesJsonBody(route)) statuses.add(415);
  // Every authorizer can fail to read its store, as can every route that reads the table; every integration can
  // outlive the gateway's timeout.
  if (authorizerOf(route) || route.dynamodb.length > 0) statuses.add(503);
  statuses.add(504);
  return [...statuses].sort((a, b) => a - b);
}

/** Response headers by name and what each says, as OpenAPI header objects (text values). */
export const headerObjects = (descriptions: Readonly<Record<string, string>>): Json =>
  Object.fromEntries(Object.entries(descriptions).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));

/** A response's documented headers (a redirect's Location), as OpenAPI header objects, and a replay's mark on a success. */
function headersOf(route: RouteDefinition, status: number, doc: ResponseDoc | undefined): Json {
  const headers: Json = headerObjects(doc?.headers ?? {});
  if (status < 300 && honoursIdempotencyKey(route)) Object.assign(headers, REPLAYED_HEADER);
  return Object.keys(headers).length ? { headers } : {};
}

/** Named examples of one response: an object per name, with its summary where it has one. */
export type Examples = Record<string, { summary?: string; value: unknown }>;

const exampleOf = ({ summary, answer }: ErrorExample) => ({ summary, value: answer });

/** The 400 and 404 an operation's request schemas make, on its example body (a test sends each request and compares). */
export function madeErrorExamples(route: RouteDefinition, body: unknown): { 400?: ErrorExample; 404?: ErrorExample } {
  return { 400: badRequestExample(route, body), 404: route.errors.includes(404) ? notFoundExample(route, body) : undefined };
}

/**
 * The error examples an operation shows that are its own answers: the 400 and 404 its request schemas make (see
 * error-examples.ts), and the 409 a reused Idempotency-Key gets, where it takes one.
 */
export function errorExamplesOf(route: RouteDefinition, body: unknown): Record<number, Examples> {
  const { 400: badRequest, 404: notFound } = madeErrorExamples(route, body);
  const reused = honoursIdempotencyKey(route) ? keyReused(EXAMPLE_IDEMPOTENCY_KEY) : undefined;
  return {
    400: badRequest ? { BadRequest: exampleOf(badRequest) } : {},
    404: notFound ? { NotFound: exampleOf(notFound) } : {},
    409: reused
      ? { IdempotencyKeyReused: { summary: `${IDEMPOTENCY_KEY} ${EXAMPLE_IDEMPOTENCY_KEY} sent before with another request`, value: errorEnvelope(reused.status, reused.message, reused.code) } }
      : {},
  };
}

export function response(route: RouteDefinition, status: number, componentSchemas: Components, own: Examples = {}): Json {
  const doc = route.responses?.[status];
  if (status === route.status) {
    const content: Json = { schema: convert(doc?.schema ?? route.response, 'answer', componentSchemas, `response ${status}`) };
    if (doc?.examples) content.examples = examplesObject(doc.examples);
    return { description: doc?.description ?? route.summary, ...headersOf(route, status, doc), content: { [mediaType(route)]: content } };
  }
  const shared = status === 403 ? forbiddenOf(route) : SHARED_ERRORS[status];
  if (!doc && shared && Object.keys(own).length === 0) return { $ref: `#/components/responses/${shared.name}` };
  const description = doc?.description ?? shared?.description ?? STATUS_CODES[status] ?? `HTTP ${status}`;
  const headers = { ...(shared?.headers ? { headers: shared.headers } : {}), ...headersOf(route, status, doc) };
  if (doc?.empty) return { description, ...headers };
  if (doc?.schema) {
    const content: Json = { schema: convert(doc.schema, 'answer', componentSchemas, `response ${status}`) };
    if (doc.examples) content.examples = examplesObject(doc.examples);
    return { description, ...headers, content: { [JSON_MEDIA_TYPE]: content } };
  }
  // The shared example where there is one, the operation's own (made from its schemas, or written in its row) beside it.
  const examples: Examples = { ...(shared ? sharedExamples(shared) : {}), ...own, ...examplesObject(doc?.examples ?? {}) };
  const content: Json = { schema: envelopeRef };
  if (Object.keys(examples).length) content.examples = examples;
  return { description, ...headers, content: { [JSON_MEDIA_TYPE]: content } };
}

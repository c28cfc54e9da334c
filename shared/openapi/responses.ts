import { STATUS_CODES } from 'node:http';
import type * as v from 'valibot';
import { someScopeRefuses } from '../auth/scopes';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '../http/gateway-responses';
import { errorEnvelope } from '../http/envelope';
import { STORE_UNAVAILABLE_MESSAGE } from '../errors';
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
export const SHARED_ERRORS: Record<number, { name: string; description: string; example?: unknown; otherExamples?: Record<string, unknown>; headers?: Json; appliesTo?: (route: RouteDefinition) => boolean }> = {
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
  403: {
    name: 'InsufficientScope',
    description: prose`
      INSUFFICIENT_SCOPE: the API key’s scope does not allow this method. A \`read\` key may only GET; a \`write\` key
      may not DELETE; a \`full\` key may do everything. With a member’s session: INSUFFICIENT_SCOPE too when the
      member’s role is below the one the operation needs (the operation’s \`x-session-role\`), and CSRF_TOKEN_REQUIRED
      for a request other than GET without the session’s \`X-CSRF-Token\` header.
    `,
    example: gatewayResponseBody(GATEWAY_RESPONSES.ACCESS_DENIED),
    // A route every scope reaches (POST /mcp) documents a 403 of its own and never this one.
    appliesTo: (route) => mayRefuseCaller(route),
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
export const sharedExamples = ({ name, example, otherExamples }: (typeof SHARED_ERRORS)[number]): Examples =>
  examplesObject({ ...(example === undefined ? {} : { [name]: example }), ...otherExamples });

/**
 * Whether a keyed route may refuse its caller 403: a key's scope that does not allow the method, or a member's session
 * below the route's role or changing something without its CSRF token. The MCP server's route takes no session.
 */
const mayRefuseCaller = (route: RouteDefinition) =>
  route.auth !== 'none' && (someScopeRefuses(route.method, route.path) || (!route.tokenAudience && (route.method !== 'GET' || (route.sessionRole ?? 'MEMBER') !== 'MEMBER')));

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
  // A key whose scope does not allow the method is refused by the gateway (every scope may GET).
  if (mayRefuseCaller(route)) statuses.add(403);
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
  const shared = SHARED_ERRORS[status]?.appliesTo?.(route) === false ? undefined : SHARED_ERRORS[status];
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

import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { ApiError, BadRequestError, PayloadTooLargeError, ProviderError, refusedUnrun, UnsupportedMediaTypeError, ValidationError } from '../errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json-depth';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { DIMENSION, functionVersionOf, logger, METRIC } from '../observability';
import { metrics } from '../metrics';
import { errorResponse, jsonResponse, type JsonResponse } from './envelope';

type Middleware = MiddlewareObj<APIGatewayProxyEvent, JsonResponse, Error, Context>;

type BodyParserCause = { package?: string; data?: unknown };

/**
 * middy's body parser signals malformed JSON, and a prototype-polluting key such as __proto__
 * (which it refuses on purpose), with a 422; the API answers 400 and says which it was.
 */
function bodyParserMessage(error: Error): string | undefined {
  const cause = (error as { cause?: BodyParserCause }).cause;
  if (cause?.package !== '@middy/http-json-body-parser') return undefined;
  return error.message === 'Forbidden key in JSON body' ? `Request body must not use the key "${String(cause.data)}"` : 'Request body must be valid JSON';
}

/**
 * The one place where errors become HTTP responses. Internals never leak into a 500. `asDomainError` names what the
 * layers below throw as the domain error it is (the handler factory's: a store that did not answer is a 503).
 */
export function errorEnvelope(asDomainError: (error: Error) => Error = (error) => error): Middleware {
  return {
    onError: (request) => {
      const error = request.error ? asDomainError(request.error) : request.error;
      const malformedBody = error ? bodyParserMessage(error) : undefined;
      if (error instanceof ApiError) {
        const response = error.body ? jsonResponse(error.status, error.body) : errorResponse(error.status, error.message, error.code, error.details);
        request.response = { ...response, headers: { ...response.headers, ...error.headers } };
      } else if (error instanceof ProviderError) {
        request.response = jsonResponse(error.status, { message: error.message });
      } else if (malformedBody) {
        request.response = errorResponse(400, malformedBody, 'INVALID_JSON');
      } else {
        request.response = errorResponse(500, 'Internal server error', 'INTERNAL_ERROR');
      }
    },
  };
}

/**
 * The `error.code` of an error envelope, for the errors metric's dimension, which Powertools drops unless it is a
 * string that is not empty. A JSON-RPC error (`/mcp`) has a number there: `JSONRPC_-32700`. A body that is neither has none.
 */
function errorCodeOf(response: JsonResponse | undefined | null): string {
  let code: unknown;
  try {
    code = (JSON.parse(response?.body ?? '') as { error?: { code?: unknown } } | null)?.error?.code;
  } catch {
    return 'NONE';
  }
  if (typeof code === 'number') return `JSONRPC_${code}`;
  return typeof code === 'string' && code ? code : 'NONE';
}

/**
 * One structured line per request (Powertools Logger) with the keys that find a tenant's request, and
 * its metrics (EMF): requests and latency per operation, errors by code, the organization as metadata.
 * The start time is kept per request, not per handler: locally one handler serves overlapping requests.
 */
export function accessLog(operationId: string): Middleware {
  const startedAt = new WeakMap<object, number>();
  const log = (request: Parameters<NonNullable<Middleware['after']>>[0]) => {
    const status = request.response?.statusCode ?? 500;
    const durationMs = Date.now() - (startedAt.get(request) ?? Date.now());
    const organizationId = request.event.requestContext?.authorizer?.organizationId as string | undefined;
    // Passed on the line as well as appended: locally, overlapping requests share the logger.
    const fields = { operationId, organizationId, requestId: request.event.requestContext?.requestId, method: request.event.httpMethod, path: request.event.path, status, durationMs };
    if (status >= 500) logger.error('request', { ...fields, ...(request.error ? { error: request.error } : {}) });
    else logger.info('request', fields);

    metrics.addDimension(DIMENSION.operation, operationId);
    metrics.addMetric(METRIC.requests, MetricUnit.Count, 1);
    metrics.addMetric(METRIC.latency, MetricUnit.Milliseconds, durationMs);
    if (organizationId) metrics.addMetadata('organizationId', organizationId);
    if (status >= 400) {
      const error = metrics.singleMetric();
      error.addDimensions({ [DIMENSION.operation]: operationId, [DIMENSION.errorCode]: errorCodeOf(request.response) });
      error.addMetric(METRIC.errors, MetricUnit.Count, 1);
    }
    if (status >= 500) {
      // The error middleware answers a thrown error as a 500, so Lambda counts the invocation a success: this count,
      // of the version that answered, is what rolls a canary back (infra/cdk/monitoring.ts).
      const failed = metrics.singleMetric();
      failed.addDimensions({ [DIMENSION.operation]: operationId, [DIMENSION.version]: functionVersionOf(request.context) });
      failed.addMetric(METRIC.serverErrors, MetricUnit.Count, 1);
    }
  };
  return {
    before: (request) => {
      startedAt.set(request, Date.now());
      logger.appendKeys({
        operationId,
        organizationId: request.event.requestContext?.authorizer?.organizationId,
        keyId: request.event.requestContext?.authorizer?.keyId,
        requestId: request.event.requestContext?.requestId,
      });
    },
    after: log,
    onError: log,
  };
}

/**
 * A request without a body is read as `{}`, so a route whose fields are all optional (accepting an
 * invitation) needs none, and one with required fields names the first missing field. A body that is
 * JSON but not an object (`null`, `[]`) is still refused as a whole.
 */
export function absentBodyIsEmptyObject(): Middleware {
  return {
    before: (request) => {
      if (request.event.body === null || request.event.body === undefined || request.event.body === '') request.event.body = '{}';
    },
  };
}

/** The one media type a JSON body is taken as (no `+json` type is used by any client of this API). */
export const JSON_BODY_TYPE = 'application/json';

/**
 * Whether a Content-Type is JSON's: `application/json` in any case, whatever its parameters. A `charset` changes nothing:
 * the body is read as UTF-8 whatever it says (RFC 8259 §8.1), and other bytes answer 400 INVALID_JSON (jsonBodyAsText).
 */
export const isJsonContentType = (contentType: string): boolean => contentType.split(';')[0]!.trim().toLowerCase() === JSON_BODY_TYPE;

/**
 * A JSON route's body must say it is JSON: a text/plain, form or multipart body (what a page on another site can post
 * without asking first), or a body with no Content-Type, answers 415 before anything reads it, rather than be parsed
 * as JSON all the same. A request without a body needs no Content-Type (an action that takes no fields).
 */
export function jsonContentTypeOnly(): Middleware {
  return {
    before: (request) => {
      const { body, headers } = request.event;
      if (body === null || body === undefined || body === '') return;
      const contentType = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      if (contentType !== undefined && isJsonContentType(contentType)) return;
      const sent = contentType === undefined ? 'the request has none' : `not ${JSON.stringify(contentType.slice(0, 100))}`;
      // Refused before anything ran: not kept for an Idempotency-Key, so the retry with the right type runs.
      throw refusedUnrun(new UnsupportedMediaTypeError(`This operation takes a JSON body: send Content-Type: ${JSON_BODY_TYPE}, ${sent}`));
    },
  };
}

/** Refuses bytes that are not UTF-8 instead of reading U+FFFD in their place; a byte order mark is kept, and refused as JSON. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A JSON body as the text its bytes spell (every body arrives base64-encoded, as binaryMediaTypes takes every type). JSON is
 * UTF-8 (RFC 8259 §8.1): other bytes (Latin-1, an encoded surrogate) answer 400 INVALID_JSON rather than be stored
 * with U+FFFD where they were. A body nested deeper than any request of this API is refused by name before the
 * parser's reviver recurses over it.
 */
export function jsonBodyAsText(): Middleware {
  return {
    before: (request) => {
      const { body, isBase64Encoded } = request.event;
      if (typeof body !== 'string') return;
      if (isBase64Encoded) {
        try {
          request.event.body = STRICT_UTF8.decode(Buffer.from(body, 'base64'));
        } catch {
          throw refusedUnrun(new BadRequestError('Request body must be JSON encoded in UTF-8', 'INVALID_JSON'));
        }
        request.event.isBase64Encoded = false;
      }
      if (nestsDeeperThan(request.event.body as string)) {
        throw refusedUnrun(new ValidationError([{ path: 'body', message: `body must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep` }]));
      }
    },
  };
}

/** The largest request body the API reads: far above any valid request, far below what would slow a function. */
export const MAX_BODY_BYTES = 256 * 1024;

/** A body over `limitBytes` (MAX_BODY_BYTES unless the route takes more) answers 413 before anything parses it. */
export function bodySizeLimit(limitBytes = MAX_BODY_BYTES): Middleware {
  return {
    before: (request) => {
      const { body, isBase64Encoded } = request.event;
      if (typeof body !== 'string') return;
      const bytes = isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
      // Refused before anything reads it: not kept for an Idempotency-Key, so the retry with a smaller body runs.
      if (bytes > limitBytes) throw refusedUnrun(new PayloadTooLargeError(limitBytes));
    },
  };
}

import type { ErrorDetail } from '../errors';
import { acceptsGzip, CompressibleText } from './compressible-text';

export interface ErrorEnvelope {
  success: false;
  message: string;
  error: { status: number; message: string; code?: string; details?: ErrorDetail[] };
}

export function errorEnvelope(status: number, message: string, code?: string, details?: ErrorDetail[]): ErrorEnvelope {
  return { success: false, message, error: { status, message, ...(code ? { code } : {}), ...(details ? { details } : {}) } };
}

/** On every answer: nothing an API returns is for a shared cache, and no browser guesses another type. */
export const NO_STORE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...NO_STORE_HEADERS } as const;

export interface JsonResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** The body is base64 of bytes (a gzipped answer); API Gateway sends the bytes. */
  isBase64Encoded?: boolean;
}

export function jsonResponse(statusCode: number, body: unknown): JsonResponse {
  return { statusCode, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

/** An answer without a body (a redirect, a CORS preflight): no content type, nothing cached. */
export function emptyResponse(statusCode: number, headers: Readonly<Record<string, string>>): JsonResponse {
  return { statusCode, headers: { ...NO_STORE_HEADERS, ...headers }, body: '' };
}

/**
 * A non-JSON answer (the docs page): the handler returns the body as a string, or as CompressibleText to have
 * it gzipped for a client whose Accept-Encoding allows it.
 */
export function textResponse(statusCode: number, contentType: string, body: unknown, cacheControl = 'no-store', acceptEncoding?: string): JsonResponse {
  const headers = { 'content-type': contentType, ...NO_STORE_HEADERS, 'cache-control': cacheControl };
  if (body instanceof CompressibleText) {
    // Either answer may be cached, so a cache must key it on the request's Accept-Encoding.
    const negotiated = { ...headers, vary: 'Accept-Encoding' };
    return acceptsGzip(acceptEncoding)
      ? { statusCode, headers: { ...negotiated, 'content-encoding': 'gzip' }, body: body.gzippedBase64, isBase64Encoded: true }
      : { statusCode, headers: negotiated, body: body.text };
  }
  if (typeof body !== 'string') throw new TypeError(`A ${contentType} answer needs a string body`);
  return { statusCode, headers, body };
}

export function errorResponse(status: number, message: string, code?: string, details?: ErrorDetail[]): JsonResponse {
  return jsonResponse(status, errorEnvelope(status, message, code, details));
}

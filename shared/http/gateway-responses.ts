import { RETRY_AFTER_SECONDS } from '../auth/usage-plans';
import { gatewayResponseBody, UNAUTHORIZED } from './unauthorized';

export { gatewayResponseBody, unauthorizedByFunction } from './unauthorized';

/**
 * Errors API Gateway answers by itself, before or instead of a function. The stack installs these
 * as gateway responses and the local server answers with the same ones, so every error the API
 * returns has the error envelope {success: false, message, error: {status, message, code?}}.
 */
export interface GatewayResponse {
  type:
    | 'UNAUTHORIZED'
    | 'ACCESS_DENIED'
    | 'MISSING_AUTHENTICATION_TOKEN'
    | 'THROTTLED'
    | 'REQUEST_TOO_LARGE'
    | 'AUTHORIZER_FAILURE'
    | 'AUTHORIZER_CONFIGURATION_ERROR'
    | 'INTEGRATION_TIMEOUT'
    | 'INTEGRATION_FAILURE'
    | 'API_CONFIGURATION_ERROR'
    | 'EXPIRED_TOKEN'
    | 'INVALID_API_KEY'
    | 'INVALID_SIGNATURE'
    | 'WAF_FILTERED'
    | 'UNSUPPORTED_MEDIA_TYPE'
    | 'QUOTA_EXCEEDED'
    | 'RESOURCE_NOT_FOUND'
    | 'BAD_REQUEST_BODY'
    | 'BAD_REQUEST_PARAMETERS'
    | 'DEFAULT_4XX'
    | 'DEFAULT_5XX';
  status: number;
  message: string;
  /** Absent on 401: that body is exactly {success, message, error: {status, message}}, without a code. */
  code?: string;
  /** Fixed response headers: API Gateway's gateway responses cannot compute one per request. */
  headers?: Record<string, string>;
}

export const GATEWAY_RESPONSES = {
  UNAUTHORIZED,
  // The authorizer's policy allows only the methods of the key's scope (shared/auth/scopes.ts): another is refused here.
  ACCESS_DENIED: { type: 'ACCESS_DENIED', status: 403, message: "The API key's scope, or the member's role, does not allow this request", code: 'INSUFFICIENT_SCOPE' },
  // API Gateway calls an unknown route a missing token; for the API's users it is an unknown route.
  MISSING_AUTHENTICATION_TOKEN: { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, message: 'Not found', code: 'NOT_FOUND' },
  // Usage-plan limits per organization (see usage-plans.ts): both are RATE_LIMITED, told apart by the message.
  THROTTLED: { type: 'THROTTLED', status: 429, message: 'Too many requests; slow down and retry after the Retry-After seconds', code: 'RATE_LIMITED', headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.THROTTLED) } },
  REQUEST_TOO_LARGE: { type: 'REQUEST_TOO_LARGE', status: 413, message: 'Request body too large', code: 'REQUEST_TOO_LARGE' },
  // The authorizer could not check the key (its store failed): not the caller's fault, so not a 401.
  AUTHORIZER_FAILURE: { type: 'AUTHORIZER_FAILURE', status: 503, message: 'The API key could not be checked; try again', code: 'AUTHORIZER_UNAVAILABLE' },
  AUTHORIZER_CONFIGURATION_ERROR: { type: 'AUTHORIZER_CONFIGURATION_ERROR', status: 503, message: 'The API key could not be checked; try again', code: 'AUTHORIZER_UNAVAILABLE' },
  // API Gateway gives an integration 29 s.
  INTEGRATION_TIMEOUT: { type: 'INTEGRATION_TIMEOUT', status: 504, message: 'The request took too long; try again', code: 'TIMEOUT' },
  // API Gateway's own answers keep their real status; only types nobody names fall to the defaults below.
  // What API Gateway answers when Lambda throttles the function (its reserved concurrency spent) or cannot invoke it:
  // nothing ran, so a 503 to retry, never the 500 a proxy integration answers unmapped.
  INTEGRATION_FAILURE: { type: 'INTEGRATION_FAILURE', status: 503, message: 'The operation is busy; retry after the Retry-After seconds', code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.THROTTLED) } },
  API_CONFIGURATION_ERROR: { type: 'API_CONFIGURATION_ERROR', status: 500, message: 'Internal server error', code: 'INTERNAL_ERROR' },
  EXPIRED_TOKEN: { type: 'EXPIRED_TOKEN', status: 403, message: 'Forbidden', code: 'FORBIDDEN' },
  INVALID_API_KEY: { type: 'INVALID_API_KEY', status: 403, message: 'Forbidden', code: 'FORBIDDEN' },
  INVALID_SIGNATURE: { type: 'INVALID_SIGNATURE', status: 403, message: 'Forbidden', code: 'FORBIDDEN' },
  WAF_FILTERED: { type: 'WAF_FILTERED', status: 403, message: 'The request was blocked by the firewall', code: 'FORBIDDEN' },
  UNSUPPORTED_MEDIA_TYPE: { type: 'UNSUPPORTED_MEDIA_TYPE', status: 415, message: 'Unsupported media type: send application/json', code: 'UNSUPPORTED_MEDIA_TYPE' },
  QUOTA_EXCEEDED: { type: 'QUOTA_EXCEEDED', status: 429, message: "The organization's daily request quota is used up; it renews at 00:00 UTC", code: 'RATE_LIMITED', headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.QUOTA_EXCEEDED) } },
  RESOURCE_NOT_FOUND: { type: 'RESOURCE_NOT_FOUND', status: 404, message: 'Not found', code: 'NOT_FOUND' },
  BAD_REQUEST_BODY: { type: 'BAD_REQUEST_BODY', status: 400, message: 'Bad request', code: 'BAD_REQUEST' },
  BAD_REQUEST_PARAMETERS: { type: 'BAD_REQUEST_PARAMETERS', status: 400, message: 'Bad request', code: 'BAD_REQUEST' },
  DEFAULT_4XX: { type: 'DEFAULT_4XX', status: 400, message: 'Bad request', code: 'BAD_REQUEST' },
  DEFAULT_5XX: { type: 'DEFAULT_5XX', status: 500, message: 'Internal server error', code: 'INTERNAL_ERROR' },
} as const satisfies Record<GatewayResponse['type'], GatewayResponse>;

/**
 * A known path asked with a method it does not take: 405 with the methods it does take in `Allow`. Deployed, an
 * ANY method with a mock integration on each path answers it (API Gateway prefers a path's own methods to ANY);
 * locally the gateway does.
 */
export function methodNotAllowed(methods: readonly string[]) {
  const allow = [...new Set(methods)].sort().join(', ');
  const message = `This path answers ${allow} only`;
  return { status: 405, headers: { Allow: allow }, body: { success: false, message, error: { status: 405, message, code: 'METHOD_NOT_ALLOWED' } } };
}

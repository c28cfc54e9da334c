import { ApiError } from '../errors';
import type { GatewayResponse } from './gateway-responses';

/*
 * The gateway's 401 and the body of any gateway response, apart from the table of them all (./gateway-responses.ts),
 * which the stack and the local gateway read: every route's function answers a 401 through the handler factory, and
 * with this module alone it bundles none of that table (about 3 KB with the usage plans' limits it names).
 */

// HTTP's 401 names the scheme the client must use (RFC 9110 §11.6.1; Bearer, RFC 6750 §3).
export const UNAUTHORIZED = { type: 'UNAUTHORIZED', status: 401, message: 'Invalid or expired token', headers: { 'WWW-Authenticate': 'Bearer realm="sales-pipeline"' } } as const satisfies GatewayResponse;

export function gatewayResponseBody({ status, message, code }: GatewayResponse) {
  return { success: false, message, error: { status, message, ...(code ? { code } : {}) } };
}

/**
 * The gateway's 401, answered by a function: a credential the gateway's cached answer let through that is refused all
 * the same, answered as the gateway answers one it refuses itself. `challenge` is its WWW-Authenticate.
 */
export function unauthorizedByFunction(challenge: string = UNAUTHORIZED.headers['WWW-Authenticate']): ApiError {
  const { status, message } = UNAUTHORIZED;
  const error = new ApiError(status, message);
  error.body = gatewayResponseBody(UNAUTHORIZED);
  error.headers = { 'WWW-Authenticate': challenge };
  return error;
}

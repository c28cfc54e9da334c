import { ApiError } from '#shared/errors';
import { EmptyAnswer } from '#shared/http/answer';
import { PREFLIGHT_HEADERS } from '#shared/http/cors';
import { tokenMatches, unauthorized } from './auth';
import type { InboundEndpointRecord } from './entity';
import { getInboundEndpoint } from './store';

/**
 * The CORS headers of an answer to a browser on another site: only for an origin the endpoint lists, compared
 * exactly as the browser sent it, so `https://shop.example.com.evil.net` or another port is not it. None otherwise.
 */
export function corsHeaders(endpoint: InboundEndpointRecord, origin: string | undefined): Record<string, string> {
  if (!origin || !endpoint.allowedOrigins.includes(origin)) return {};
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/**
 * The answer to a browser's CORS preflight (OPTIONS) of a post: 204, and for an allowed origin asking to POST, the
 * headers that let it (Content-Type for JSON, Idempotency-Key for retries). The URL's token must be valid, as on
 * the post itself, else 401 as an unknown endpoint answers: a preflight must not tell which ids exist.
 */
export async function answerPreflight(organizationId: string, endpointId: string, token: string | undefined, headers: Record<string, string>): Promise<EmptyAnswer> {
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint || token === undefined || !tokenMatches(endpoint, token)) throw unauthorized();
  const cors = headers['access-control-request-method'] === 'POST' ? corsHeaders(endpoint, headers.origin) : {};
  if (!cors['access-control-allow-origin']) return new EmptyAnswer(204);
  return new EmptyAnswer(204, { ...cors, ...PREFLIGHT_HEADERS });
}

/**
 * Refused unless the post comes from a page on one of the endpoint's allowedOrigins, when it enforces them. A post
 * without Origin is refused too: every browser sends it with a POST, so only a script leaves it out.
 */
export function refuseForeignOrigin(endpoint: InboundEndpointRecord, origin: string | undefined): void {
  if (!endpoint.enforceOrigin || (origin !== undefined && endpoint.allowedOrigins.includes(origin))) return;
  throw new ApiError(403, origin === undefined ? 'Posts to this endpoint must come from a page on one of its allowedOrigins: this one has no Origin header' : `Posts to this endpoint must come from a page on one of its allowedOrigins, not ${origin}`, 'ORIGIN_NOT_ALLOWED');
}

import { admitSource, sourceLimited, sourceOfAddress } from '#shared/limits/per-source';
import type { RawRequest } from '#shared/http/route-handler';
import { OAuthError } from './errors';
import { OAUTH_SOURCE_LIMITS } from './source-limits';

/** OAuth's own refusal, as its clients read one (`{error, error_description}`), 429 with Retry-After. */
function oauthSourceLimited(retryAfterSeconds: number): OAuthError {
  const error = new OAuthError('temporarily_unavailable', `Too many requests from this address or client; retry after ${retryAfterSeconds} s`, 429);
  error.headers = { 'Retry-After': String(retryAfterSeconds) };
  return error;
}

const addressOf = (request: RawRequest) => sourceOfAddress(request.sourceIp);

export const limitRegistration = (request: RawRequest) =>
  admitSource([[OAUTH_SOURCE_LIMITS.registerPerMinute, addressOf(request)], [OAUTH_SOURCE_LIMITS.registerPerHour, addressOf(request)]], oauthSourceLimited);

/** The consent page asked for: refused with the API's envelope, as its other refusals are, before it reads or fetches. */
export const limitAuthorizePage = (request: RawRequest) => admitSource([[OAUTH_SOURCE_LIMITS.authorizePagePerMinute, addressOf(request)]], sourceLimited);

/** The consent page is a page a person posts: refused with the API's envelope, as its other refusals are. */
export const limitConsent = (request: RawRequest) => admitSource([[OAUTH_SOURCE_LIMITS.consentPerMinute, addressOf(request)]], sourceLimited);

export const limitTokenAddress = (request: RawRequest) => admitSource([[OAUTH_SOURCE_LIMITS.tokenPerMinute, addressOf(request)]], oauthSourceLimited);

export const limitTokenClient = (clientId: string) => admitSource([[OAUTH_SOURCE_LIMITS.tokenPerClientPerMinute, clientId]], oauthSourceLimited);

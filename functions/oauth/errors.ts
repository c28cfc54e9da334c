import { ApiError } from '#shared/errors';

/**
 * The error codes OAuth's endpoints answer: RFC 6749 §5.2 and §4.1.2.1, RFC 7591 §3.2.2, RFC 8707's `invalid_target`.
 * The one list the document's description of `error` is written from.
 */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'invalid_target',
  'unsupported_grant_type',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'temporarily_unavailable',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/**
 * A refusal of an OAuth endpoint (the token endpoint, client registration, a client that cannot be found), answered as
 * OAuth clients read one (RFC 6749 §5.2, RFC 7591 §3.2.2): `{error, error_description}`, not the envelope; the
 * description names the field.
 */
export class OAuthError extends ApiError {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    status = 400,
  ) {
    super(status, description, error);
    this.body = { error, error_description: description };
  }
}

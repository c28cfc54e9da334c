import { ApiError } from '#shared/errors';

/**
 * A refusal of an OAuth endpoint (the token endpoint, client registration, a client that cannot be found), answered as
 * OAuth clients read one (RFC 6749 §5.2, RFC 7591 §3.2.2): `{error, error_description}`, not the envelope; the
 * description names the field.
 */
export class OAuthError extends ApiError {
  constructor(
    readonly error: string,
    readonly description: string,
    status = 400,
  ) {
    super(status, description, error);
    this.body = { error, error_description: description };
  }
}

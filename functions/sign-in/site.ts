/** Where the console is served, on the API's own origin (the same origin: no CORS, and the session cookie is first-party). */
export const CONSOLE_PATH = '/console';

/**
 * The headers of every console file, locally and from the distribution (its response headers policy): scripts and
 * styles from the origin alone, no framing, no referrer beyond the origin, and the browser told not to guess types.
 */
export const CONSOLE_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

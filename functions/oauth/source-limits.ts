import type { SourceLimit } from '#shared/limits/per-source';

/**
 * What one source may ask of OAuth's public endpoints (docs/decisions/security.md): each source its own budget, so a
 * caller flooding one endpoint is refused while every other caller, and every client's refreshes, are answered.
 */
export const OAUTH_SOURCE_LIMITS = {
  /** Registrations per client address a minute, and fewer an hour than a minute's rate would allow: each is a stored item. */
  registerPerMinute: { name: 'oauth-register-minute', limit: 10, windowSeconds: 60 },
  registerPerHour: { name: 'oauth-register-hour', limit: 30, windowSeconds: 3600 },
  /**
   * Consent pages asked for per client address a minute, before anything is read or fetched: a page may fetch its
   * client's document, and the route's few reserved invocations are shared by every caller.
   */
  authorizePagePerMinute: { name: 'oauth-authorize-minute', limit: 30, windowSeconds: 60 },
  /** Consent pages posted per client address a minute: a person pasting a key, a few times if mistyped. */
  consentPerMinute: { name: 'oauth-consent-minute', limit: 20, windowSeconds: 60 },
  /** Token requests per client address a minute; then per client_id, below which no one address can bring a client. */
  tokenPerMinute: { name: 'oauth-token-minute', limit: 60, windowSeconds: 60 },
  tokenPerClientPerMinute: { name: 'oauth-token-client-minute', limit: 600, windowSeconds: 60 },
} as const satisfies Record<string, SourceLimit>;


/**
 * How long a member's session and what signs one in live (docs/decisions/console.md says why these values). A session
 * ends after IDLE_MINUTES without a request, and after ABSOLUTE_HOURS whatever happens; both are checked by the
 * authorizer, whose cached answer (the API's authorizer cache) may outlive either by at most its TTL.
 */
export const SESSION_LIFETIME = {
  idleMinutes: 30,
  absoluteHours: 12,
  /** How stale a session's last use may be: writing it on every request would cost a write per call. */
  touchPrecisionSeconds: 60,
} as const;

export const SIGN_IN_CODE = {
  digits: 6,
  lifetimeMinutes: 10,
  /** Wrong codes a code takes before it is burnt: 5 guesses of 10⁶ per code sent. */
  attempts: 5,
} as const;

/** A passkey ceremony's challenge: single use, and as long as a person takes to touch their authenticator. */
export const PASSKEY_CHALLENGE_MINUTES = 5;

/** The session cookie's name: `__Host-`, so it is Secure, has Path=/ and no Domain, and no subdomain can set it. */
export const SESSION_COOKIE = '__Host-session';

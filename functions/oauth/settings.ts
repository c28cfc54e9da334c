import { runsInLambda } from '#shared/runs-in-lambda';

/**
 * How long what OAuth issues lives, and the bounds of client ID metadata documents: one place, read by the
 * endpoints, the authorizer and the tests.
 */
export const OAUTH_LIMITS = {
  /** An authorization code: one exchange, within a minute of the consent. */
  codeSeconds: 60,
  /** An access token: an hour, then the client refreshes. */
  accessTokenSeconds: 3600,
  /** A refresh token: 30 days unused; each use rotates it. */
  refreshTokenSeconds: 30 * 86_400,
  /**
   * A client registered by dynamic registration and never granted anything is refused, then deleted (TTL), after this:
   * a person consents within minutes of registering, and what anonymous callers leave behind is gone within a day.
   */
  unusedRegistrationSeconds: 86_400,
  /** A client ID metadata document's size. */
  documentBytes: 5 * 1024,
  /**
   * One deadline for the whole fetch of a document (DNS, connect, TLS, the body): a static file, which a healthy host
   * answers in a fraction of this, and what a host that never answers holds an invocation for.
   */
  documentDeadlineMs: 2000,
  /**
   * How long a document is kept: its Cache-Control max-age within the floor and ceiling (no-store or no-cache: the
   * floor), `documentCacheSeconds` when it says none. A failure (no answer, a refusal, not a document) is kept
   * `documentFailureSeconds`, so a host that hangs is asked at most once in that time per URL.
   */
  documentCacheSeconds: 300,
  documentCacheFloorSeconds: 60,
  documentCacheCeilingSeconds: 86_400,
  documentFailureSeconds: 30,
  /** Documents and failures kept at once, the least recently used forgotten first. */
  documentCacheEntries: 100,
} as const;

/** How long an unused registration lasts, as the document says it. */
export const UNUSED_REGISTRATION_LIFETIME = `${OAUTH_LIMITS.unusedRegistrationSeconds / 3600} hours`;

/**
 * Hosts (`host:port`) whose client ID metadata documents may be fetched although they are on this machine, with the
 * certificate authority their https is signed by: for the tests' local client host only. Set in process by a test;
 * `OAUTH_TEST_CLIENT_HOSTS` sets it for `npm start` (and `sam local`), and a function running in Lambda refuses to start with it.
 */
export const clientDocumentHosts: { allowed: Set<string>; ca?: string } = { allowed: new Set((process.env.OAUTH_TEST_CLIENT_HOSTS ?? '').split(',').filter(Boolean)) };

if (clientDocumentHosts.allowed.size > 0 && runsInLambda()) {
  throw new Error('OAUTH_TEST_CLIENT_HOSTS is for npm start and the tests: a deployed function never fetches a client document from a private host');
}

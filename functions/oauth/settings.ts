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
  /** A client registered by dynamic registration and never granted anything is deleted after this (TTL). */
  unusedRegistrationSeconds: 7 * 86_400,
  /** A client ID metadata document: its size, how long its host may take, how long it is kept, how many are kept. */
  documentBytes: 5 * 1024,
  documentTimeoutMs: 5000,
  documentCacheSeconds: 300,
  documentCacheEntries: 100,
} as const;

/**
 * Hosts (`host:port`) whose client ID metadata documents may be fetched although they are on this machine, with the
 * certificate authority their https is signed by: for the tests' local client host only. Set in process by a test;
 * `OAUTH_TEST_CLIENT_HOSTS` sets it for `npm start` (and `sam local`), and a function running in Lambda refuses to start with it.
 */
export const clientDocumentHosts: { allowed: Set<string>; ca?: string } = { allowed: new Set((process.env.OAUTH_TEST_CLIENT_HOSTS ?? '').split(',').filter(Boolean)) };

if (clientDocumentHosts.allowed.size > 0 && runsInLambda()) {
  throw new Error('OAUTH_TEST_CLIENT_HOSTS is for npm start and the tests: a deployed function never fetches a client document from a private host');
}

import { createHash, randomBytes } from 'node:crypto';
import { hashToken } from '#shared/auth/tokens';
import { SESSION_COOKIE } from './settings';

/**
 * A member's session token: `sps_`, the organization's ULID, the member's id and 32 random bytes. The organization and
 * member it names are what find its item under the organization's own partition (no index without the organization);
 * only its hash is stored, so a leaked table leaks no usable session.
 */
export const SESSION_TOKEN_PREFIX = 'sps_';
const FORMAT = /^sps_([0-9A-HJKMNP-TV-Z]{26})_([1-9]\d{0,9})_([A-Za-z0-9_-]{43})$/;

export interface SessionTokenParts {
  organizationId: string;
  memberId: number;
}

export const newSessionToken = ({ organizationId, memberId }: SessionTokenParts): string =>
  `${SESSION_TOKEN_PREFIX}${organizationId.replace(/^org_/, '')}_${memberId}_${randomBytes(32).toString('base64url')}`;

/** The organization and member a token names, or undefined when it is not one of ours. */
export function parseSessionToken(token: string): SessionTokenParts | undefined {
  const match = FORMAT.exec(token);
  return match ? { organizationId: `org_${match[1]}`, memberId: Number(match[2]) } : undefined;
}

export const isSessionToken = (token: string) => token.startsWith(SESSION_TOKEN_PREFIX);

/** Only this is stored, as an API key's hash is. */
export const sessionTokenHash = hashToken;

/**
 * The session's CSRF token, derived from its secret (not stored): the console reads it from GET /v1/me, and sends it
 * in X-CSRF-Token with every change. A page on another site can neither read it nor set the header.
 */
export const csrfTokenOf = (token: string) => createHash('sha256').update(`csrf:${token}`).digest('base64url');

/** The Set-Cookie of a new session: HttpOnly (no script reads it), Secure, SameSite=Strict, for the whole origin. */
export const sessionCookie = (token: string, maxAgeSeconds: number) => `${SESSION_COOKIE}=${token}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}`;

/** The Set-Cookie that ends it in this browser. */
export const clearedSessionCookie = () => `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`;

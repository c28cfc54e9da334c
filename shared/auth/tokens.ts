import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'sp_live_';

/** 32 random bytes, URL-safe, with a prefix that secret scanners and humans recognise. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Only this hash is stored; a leaked table does not leak usable keys. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether a secret presented equals the one expected, in a time that tells nothing of either: their SHA-256 digests are compared, so not even the length. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, or undefined when malformed. */
export function bearerToken(headers: Record<string, string | undefined> | null | undefined): string | undefined {
  const header = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  // Auth scheme names are case-insensitive (RFC 7235), and one or more spaces follow them (RFC 6750: "Bearer" 1*SP b64token).
  const match = /^Bearer +([A-Za-z0-9_-]{16,200})$/i.exec(header?.trim() ?? '');
  return match?.[1];
}

/**
 * The authorizer context's mark of a token for one route alone (its audience, RFC 8707: an OAuth access token's is the
 * MCP server): every other route refuses it (`tokenAudience` in the route table).
 */
export const AUDIENCE_BOUND = 'audienceBound';

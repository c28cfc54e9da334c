import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'sp_live_';

/** 32 random bytes, URL-safe, with a prefix that secret scanners and humans recognise. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Only this hash is stored; a leaked table does not leak usable keys. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of an `Authorization: Bearer <token>` header, or undefined when malformed. */
export function bearerToken(headers: Record<string, string | undefined> | null | undefined): string | undefined {
  const header = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  // Auth scheme names are case-insensitive (RFC 7235).
  const match = /^Bearer ([A-Za-z0-9_-]{16,200})$/i.exec(header?.trim() ?? '');
  return match?.[1];
}

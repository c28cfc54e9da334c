import type { RouteDefinition } from '../routes/route';
import { takesSession } from './responses';

// What a caller presents, as the document's security schemes, and which an operation takes, from its route row.

/** The organization's API key as `Authorization: Bearer` (on the MCP server, an OAuth access token too). */
export const BEARER_SCHEME = 'apiKey';
/** A member's session: its cookie, which the edge in front of the API sends on as the bearer token. */
export const SESSION_SCHEME = 'sessionCookie';
/** The session's cookie, as the sign-in sets it (functions/sign-in/settings.ts, whose name a test holds this to). */
export const SESSION_COOKIE_NAME = '__Host-session';

export const SECURITY_SCHEMES = {
  [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The organization’s API key, sent as `Authorization: Bearer <API key>`.' },
  [SESSION_SCHEME]: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE_NAME,
    description:
      'A member’s session, as the browser app calls the API: the cookie the sign-in sets (`POST /v1/sign-in/sessions`), which the edge in front of the API sends on as the bearer token. Every request but GET made with it carries the session’s `X-CSRF-Token` (403 CSRF_TOKEN_REQUIRED without it).',
  },
} as const;

/** A keyed operation that is neither session-only nor the MCP server's takes either: the key, or a member's session. */
export const EITHER: Record<string, string[]>[] = [{ [BEARER_SCHEME]: [] }, { [SESSION_SCHEME]: [] }];

/**
 * What an operation takes: nothing the API issues (a public route); a member's session alone (`sessionOnly`: a key is
 * refused SESSION_REQUIRED); the bearer alone (the MCP server's, whose tokens are OAuth's and which takes no session);
 * else the key or a session.
 */
export function securityOf(route: RouteDefinition): Record<string, string[]>[] {
  if (route.auth === 'none') return [];
  if (route.sessionOnly) return [{ [SESSION_SCHEME]: [] }];
  return takesSession(route) ? EITHER : [{ [BEARER_SCHEME]: [] }];
}

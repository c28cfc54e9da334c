import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { MiddlewareObj } from '@middy/core';
import { ApiError, refusedUnrun } from '../errors';
import { isMemberRole, type MemberRole } from '../member-roles';
import type { RouteDefinition } from '../routes/route';
import { sameSecret } from '../auth/tokens';

/** The header every state-changing request of a member's session carries: the session's CSRF token. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** What the authorizer's context says of a member's session (API Gateway hands every context value on as text). */
export interface MemberSession {
  memberId: number;
  role: MemberRole;
  csrfToken: string;
}

/** The member's session a request was authorized by, or undefined for an API key, an OAuth token or a public route. */
export function memberSessionOf(authorizer: Readonly<Record<string, unknown>> | null | undefined): MemberSession | undefined {
  const { memberId, memberRole, csrfToken } = authorizer ?? {};
  // A key's context has no memberId: Number(undefined) is NaN, as Number('') is 0, and neither is a member's id.
  const id = Number(memberId);
  if (!Number.isInteger(id) || id < 1 || !isMemberRole(memberRole) || typeof csrfToken !== 'string' || !csrfToken) return undefined;
  return { memberId: id, role: memberRole, csrfToken };
}

/** The member's session of a `sessionOnly` route's request: a key's or token's never reaches one, so none is a fault here. */
export function requiredMemberSession(authorizer: Readonly<Record<string, unknown>> | null | undefined): MemberSession {
  const session = memberSessionOf(authorizer);
  if (!session) throw new Error('A sessionOnly route ran without a member’s session');
  return session;
}

/**
 * A key's or token's request for what only a member signed in may do: a route only a session calls, or a change to
 * people (a role above MEMBER, a member's role or phone): people are managed by people, never by a key.
 */
export const sessionRequired = (what = 'do this') => refusedUnrun(new ApiError(403, `Only a member signed in may ${what}: an API key or OAuth token may not`, 'SESSION_REQUIRED'));

/** The member the request's credential acts for (a session's, or the member an API key or grant acts for); null for the organization's own key. */
export function actingMemberOf(authorizer: Readonly<Record<string, unknown>> | null | undefined): number | null {
  const id = Number(authorizer?.memberId);
  return Number.isInteger(id) && id >= 1 ? id : null;
}

/** Refused before anything ran, so not kept for an Idempotency-Key: the same request sent with its token then runs. */
export const csrfRefused = () => refusedUnrun(new ApiError(403, `A change made with a member's session must carry the session's ${CSRF_HEADER} header (GET /v1/me answers it)`, 'CSRF_TOKEN_REQUIRED'));

/**
 * Every request of a member's session that may change something (any method but GET) carries its CSRF token, in a
 * header a page on another site can neither read nor set. (The gateway has already held the session to its role, as it
 * holds a key to its scope.) A key's request passes, but on a route only a session calls.
 */
export function memberSessionChecks(route: Pick<RouteDefinition, 'sessionOnly'>): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: ({ event }) => {
      const session = memberSessionOf(event.requestContext?.authorizer);
      if (!session && route.sessionOnly) throw sessionRequired();
      if (!session || event.httpMethod === 'GET') return;
      const sent = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === CSRF_HEADER.toLowerCase())?.[1];
      if (!sent || !sameSecret(sent, session.csrfToken)) throw csrfRefused();
    },
  };
}

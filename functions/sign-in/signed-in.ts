import type { ApiKeyScope } from '#shared/auth/scopes';
import type { MemberRole } from '#shared/member-roles';
import { getMember } from '../organization/member-store';
import type { Member } from '../organization/member-schema';
import { findActiveSession } from './sessions';
import { SESSION_COOKIE } from './settings';
import { cookieNamed } from '#shared/http/cookies';

/** The active member whose live session a request's cookie carries, for a page outside the API's keyed routes (OAuth's consent). */
export async function signedInMemberOf(cookieHeader: string | undefined): Promise<{ organizationId: string; member: Member } | undefined> {
  const token = cookieNamed(cookieHeader, SESSION_COOKIE);
  const session = token === undefined ? undefined : await findActiveSession(token);
  const member = session && (await getMember(session.organizationId, session.memberId));
  return session && member && !member.isDisabled ? { organizationId: session.organizationId, member } : undefined;
}

/**
 * The widest scope a member may grant an assistant (OAuth consent): a key's scope is by method alone, and a write or
 * full key reaches webhooks, keys and members, which only an ADMIN manages; so a MANAGER or a MEMBER grants reading.
 */
export const grantableScope = (role: MemberRole): ApiKeyScope => (role === 'ADMIN' ? 'full' : 'read');

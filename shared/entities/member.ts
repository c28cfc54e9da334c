import type { Member } from '../schemas/members';
import { keys } from './keys';

export type MemberItem = Member & { pk: string; sk: string; entity: 'MEMBER'; createdAt: string };

export function toMemberItem(organizationId: string, member: Member, createdAt: string): MemberItem {
  return { ...keys.member(organizationId, member.id), entity: 'MEMBER', ...member, createdAt };
}

export function fromMemberItem(item: Record<string, unknown>): Member {
  const i = item as MemberItem;
  return {
    id: i.id,
    role: i.role,
    firstName: i.firstName,
    lastName: i.lastName,
    position: i.position ?? null,
    responsibility: i.responsibility ?? null,
    avatarImg: i.avatarImg ?? null,
    isDisabled: i.isDisabled ?? false,
    user: { id: i.user.id, email: i.user.email },
  };
}

/** Someone asked to join who has no user account yet; never listed, never a sender. */
export interface Invitation {
  id: number;
  role: Member['role'];
  email: string;
  firstName: string | null;
  lastName: string | null;
  invitedAt: string;
}

export function toInvitationItem(organizationId: string, invitation: Invitation) {
  return { ...keys.invitation(organizationId, invitation.id), entity: 'INVITATION', ...invitation };
}

/**
 * user_… → its member. Exactly these attributes: POST /v1/sms reads this item to check the sender
 * (shared/repositories/users.ts).
 */
export interface UserLookup {
  userId: string;
  memberId: number;
  email: string;
}

export function toUserLookupItem(organizationId: string, user: UserLookup) {
  return { ...keys.user(organizationId, user.userId), userId: user.userId, memberId: user.memberId, email: user.email };
}

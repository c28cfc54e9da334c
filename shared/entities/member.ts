import * as v from 'valibot';
import { Member } from '../schemas/members';
import { keys } from './keys';

export function toMemberItem(organizationId: string, member: Member, createdAt: string) {
  return { ...keys.member(organizationId, member.id), entity: 'MEMBER', ...member, createdAt };
}

export const fromMemberItem = (item: Record<string, unknown>): Member => v.parse(Member, item);

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

/** user_… → its member: what POST /v1/sms reads to check the sender. */
export const UserLookup = v.object({ userId: v.string(), memberId: v.number(), email: v.string() });
export type UserLookup = v.InferOutput<typeof UserLookup>;

export function toUserLookupItem(organizationId: string, user: UserLookup) {
  return { ...keys.user(organizationId, user.userId), ...user };
}

export const fromUserLookupItem = (item: Record<string, unknown>): UserLookup => v.parse(UserLookup, item);

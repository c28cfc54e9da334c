import * as v from 'valibot';
import { Invitation, Member } from './member-schema';
import { keys } from '../../shared/store/keys';

export function toMemberItem(organizationId: string, member: Member, createdAt: string) {
  return { ...keys.member(organizationId, member.id), entity: 'MEMBER', ...member, createdAt };
}

export const fromMemberItem = (item: Record<string, unknown>): Member => v.parse(Member, item);

export function toInvitationItem(organizationId: string, invitation: Invitation) {
  return { ...keys.invitation(organizationId, invitation.id), entity: 'INVITATION', ...invitation };
}

export const fromInvitationItem = (item: Record<string, unknown>): Invitation => v.parse(Invitation, item);

/** user_… → its member: what POST /v1/sms reads to check the sender. */
export const UserLookup = v.object({ userId: v.string(), memberId: v.number(), email: v.string(), isDisabled: v.optional(v.boolean(), false) });
export type UserLookup = v.InferOutput<typeof UserLookup>;

export function toUserLookupItem(organizationId: string, user: UserLookup) {
  return { ...keys.user(organizationId, user.userId), ...user };
}

export const fromUserLookupItem = (item: Record<string, unknown>): UserLookup => v.parse(UserLookup, item);

/**
 * Holds an email address (case-insensitive) for the member or pending invitation that has it, so no
 * second member or invitation of the organization can take it.
 */
export function toMemberEmailItem(organizationId: string, email: string, holder: { memberId: number } | { invitationId: number }) {
  return { ...keys.memberEmail(organizationId, email), entity: 'MEMBER_EMAIL', email, ...holder };
}

import { counterNames, keys } from '../entities/keys';
import { fromMemberItem, toInvitationItem, toMemberItem, toUserLookupItem, type Invitation } from '../entities/member';
import { newId, now } from '../ids';
import type { Page } from '../pagination';
import type { Member, MemberRole } from '../schemas/members';
import { counterUpdate } from './counters';
import { countedPage } from './query-page';
import { reserveIds } from './sequences';
import { insertIfAbsent, transact, writeAlone } from './transact';

/** Members and invitations share one sequence, so an accepted invitation can keep its id. */
export const MEMBER_SEQUENCE = 'MEMBER';

export interface NewMember {
  role: MemberRole;
  firstName: string;
  lastName: string;
  email: string;
  position?: string | null;
  responsibility?: string | null;
  avatarImg?: string | null;
  isDisabled?: boolean;
}

/** A member with a user account: the member, its user lookup and the members counter, in one transaction. */
export async function createMemberWithUser(organizationId: string, input: NewMember, createdAt = now()): Promise<Member> {
  const id = await reserveIds(organizationId, MEMBER_SEQUENCE);
  const member: Member = {
    id,
    role: input.role,
    firstName: input.firstName,
    lastName: input.lastName,
    position: input.position ?? null,
    responsibility: input.responsibility ?? null,
    avatarImg: input.avatarImg ?? null,
    isDisabled: input.isDisabled ?? false,
    user: { id: newId('user', new Date(createdAt)), email: input.email },
  };
  await transact([
    insertIfAbsent(toMemberItem(organizationId, member, createdAt)),
    insertIfAbsent(toUserLookupItem(organizationId, { userId: member.user.id, memberId: member.id, email: member.user.email })),
    counterUpdate(organizationId, counterNames.members, 1),
  ]);
  return member;
}

/** A pending invitation: only the invitation item, so it counts nowhere and is listed nowhere. */
export async function inviteMember(
  organizationId: string,
  input: { email: string; role: MemberRole; firstName?: string; lastName?: string },
  invitedAt = now(),
): Promise<Invitation> {
  const invitation: Invitation = {
    id: await reserveIds(organizationId, MEMBER_SEQUENCE),
    role: input.role,
    email: input.email,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    invitedAt,
  };
  await writeAlone(insertIfAbsent(toInvitationItem(organizationId, invitation)));
  return invitation;
}

/** Invitations live under their own sort-key prefix, so neither this Query nor the counter sees them. */
export async function listMembersPage(organizationId: string, page: number, limit: number): Promise<Page<Member>> {
  const { items, totalCount } = await countedPage(keys.members(organizationId), organizationId, counterNames.members, page, limit);
  return { items: items.map(fromMemberItem), totalCount: totalCount ?? 0, page, limit };
}

import * as v from 'valibot';
import { Invitation, Member } from './member-schema';
import { storedHours } from '#shared/schedule';
import { changeLogKey } from '#shared/store/keys';
import { memberKey, normalizeName, organizationPartition, pad, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '#shared/store/keys';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

export const memberKeys = {
  /** Members with a user account; pending invitations live under INVITATION# and are never listed. */
  member: memberKey,
  members: (o: string): Collection => ({ pk: org(o), skPrefix: 'MEMBER#' }),
  invitation: (o: string, id: number): Key => ({ pk: org(o), sk: `INVITATION#${pad(id)}` }),
  invitations: (o: string): Collection => ({ pk: org(o), skPrefix: 'INVITATION#' }),
  /** An email address taken by a member or a pending invitation, ignoring case. */
  memberEmail: (o: string, email: string): Key => ({ pk: org(o), sk: `MEMBEREMAIL#${normalizeName(email)}` }),
  /**
   * An E.164 phone taken by a member, so no second member of the organization has it: a code texted to a phone signs
   * in as the one member of each organization it names. The phone index below cannot be conditioned on.
   */
  memberPhone: (o: string, phone: string): Key => ({ pk: org(o), sk: `MEMBERPHONE#${phone}` }),
  /** user_… → its member, so POST /v1/sms can check the sender in one read. */
  user: (o: string, userId: string): Key => ({ pk: org(o), sk: `USER#${userId}` }),
  /**
   * gsi1 of a member with a phone: its organization and id by the phone alone, as a person signing in knows nothing
   * else (a named exception, test/keys.test.ts). One phone may be a member of several organizations.
   */
  memberByPhone: (phone: string, o: string, id: number) => ({ gsi1pk: `MEMBERPHONE#${phone}`, gsi1sk: `${org(o)}#MEMBER#${pad(id)}` }),
  membersByPhone: (phone: string): Collection => ({ pk: `MEMBERPHONE#${phone}`, skPrefix: 'ORG#' }),
} as const;

/** The member's phone index entry, or the attributes to remove when it has no phone. */
export const phoneIndexOf = (organizationId: string, member: Pick<Member, 'id' | 'phone'>) =>
  member.phone ? { set: memberKeys.memberByPhone(member.phone, organizationId, member.id), remove: [] } : { set: {}, remove: ['gsi1pk', 'gsi1sk'] };

/** The names of the members' and invitations' counter items (`COUNT#<name>`). */
export const memberCounterNames = {
  members: 'MEMBERS',
  invitations: 'INVITATIONS',
} as const;

/** The change logs (updatedSince) of the members and of the pending invitations. */
export const MEMBER_CHANGES = 'MEMBERS';
export const INVITATION_CHANGES = 'INVITATIONS';

const O = SAMPLE_ORGANIZATION_ID;

export const memberKeySamples: KeySamples<typeof memberKeys> = {
  member: () => memberKeys.member(O, 1),
  members: () => memberKeys.members(O),
  invitation: () => memberKeys.invitation(O, 1),
  invitations: () => memberKeys.invitations(O),
  memberEmail: () => memberKeys.memberEmail(O, 'a@example.com'),
  memberPhone: () => memberKeys.memberPhone(O, '+61412345678'),
  user: () => memberKeys.user(O, 'user_1'),
  memberByPhone: () => memberKeys.memberByPhone('+61412345678', O, 1),
  membersByPhone: () => memberKeys.membersByPhone('+61412345678'),
};

export function toMemberItem(organizationId: string, member: Member, createdAt: string) {
  return { ...memberKeys.member(organizationId, member.id), ...changeLogKey(organizationId, MEMBER_CHANGES), ...phoneIndexOf(organizationId, member).set, entity: 'MEMBER', ...member, createdAt };
}

/** A member's item read as the member (its hours as storedHours reads them). */
export const fromMemberItem = (item: Record<string, unknown>): Member => v.parse(Member, { ...item, workingHours: storedHours(item.workingHours) });

export function toInvitationItem(organizationId: string, invitation: Invitation) {
  return { ...memberKeys.invitation(organizationId, invitation.id), ...changeLogKey(organizationId, INVITATION_CHANGES), entity: 'INVITATION', ...invitation };
}

export const fromInvitationItem = (item: Record<string, unknown>): Invitation => v.parse(Invitation, item);

/** user_… → its member: what POST /v1/sms reads to check the sender. */
export const UserLookup = v.object({ userId: v.string(), memberId: v.number(), email: v.string(), isDisabled: v.optional(v.boolean(), false) });
export type UserLookup = v.InferOutput<typeof UserLookup>;

export function toUserLookupItem(organizationId: string, user: UserLookup) {
  return { ...memberKeys.user(organizationId, user.userId), ...user };
}

export const fromUserLookupItem = (item: Record<string, unknown>): UserLookup => v.parse(UserLookup, item);

/**
 * Holds an email address (case-insensitive) for the member or pending invitation that has it, so no
 * second member or invitation of the organization can take it.
 */
export function toMemberEmailItem(organizationId: string, email: string, holder: { memberId: number } | { invitationId: number }) {
  return { ...memberKeys.memberEmail(organizationId, email), entity: 'MEMBER_EMAIL', email, ...holder };
}

/** Holds an E.164 phone for the member that has it, so no second member of the organization can take it. */
export function toMemberPhoneItem(organizationId: string, phone: string, memberId: number) {
  return { ...memberKeys.memberPhone(organizationId, phone), entity: 'MEMBER_PHONE', phone, memberId };
}

/** A member, as the audit log names it (GET /v1/audit-log). */
export const memberAudit: AuditedRecord = { entity: 'MEMBER', resourceType: 'member' };

/** A pending invitation, as the audit log names it (GET /v1/audit-log). */
export const invitationAudit: AuditedRecord = { entity: 'INVITATION', resourceType: 'invitation' };

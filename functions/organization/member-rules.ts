import * as v from 'valibot';
import { defined } from '#shared/store/changes';
import { ApiError, NotFoundError, ValidationError } from '#shared/errors';
import { newId, now } from '#shared/ids';
import { deleteInvitation, deleteMember, getAdmins, getInvitation, getMember, insertInvitation, insertMemberWithUser, MEMBER_SEQUENCE, replaceInvitationWithMember, writeMemberChanges } from './member-store';
import { retryOnStaleWrite } from '#shared/store/versioned';
import { memberLeavingServices } from '../services/store';
import { reserveIds } from '#shared/store/sequences';
import { flushAuthorizerCache } from '#shared/auth/authorizer-cache';
import { sessionRequired } from '#shared/http/member-session';
import { clock } from '#shared/clock';
import { isActive } from '#shared/auth/api-key';
import { leavingMemberKeyWrites, listApiKeys } from '#shared/auth/api-keys';
import { deleteMemberPushSubscriptions, deleteMemberSessions, leavingMemberPasskeyWrites } from './member-credentials';
import { Member, type AcceptInvitationBody, type CreateOrganizationInvitationBody, type Invitation, type MemberChanges, type MemberRole } from './member-schema';

/** A member as created through the API, or with a picture and state by the demo data. */
export interface NewMember {
  email: string;
  firstName: string;
  lastName: string;
  role: MemberRole;
  position?: string | null;
  responsibility?: string | null;
  /** E.164, as the handler read it in the organization's country. */
  phone?: string | null;
  avatarImg?: string | null;
  isDisabled?: boolean;
}

/** What a member holds for the optional fields left out. */
const UNSET = { position: null, responsibility: null, phone: null, avatarImg: null, isDisabled: false } satisfies Partial<Member>;

/** A new member is active at once with a new user account; the schema puts the fields in documented order. */
function newMember({ email, ...fields }: NewMember, id: number, createdAt: string): Member {
  return v.parse(Member, { ...UNSET, ...fields, id, user: { id: newId('user', new Date(createdAt)), email }, updatedAt: createdAt });
}

export async function createMember(organizationId: string, input: NewMember, createdAt = now()): Promise<Member> {
  const member = newMember(input, await reserveIds(organizationId, MEMBER_SEQUENCE), createdAt);
  await insertMemberWithUser(organizationId, member, createdAt);
  return member;
}

const lastAdmin = () => new ApiError(409, 'The member is the organization’s last ADMIN: make another member ADMIN first', 'LAST_ADMIN');

/**
 * Names, email, role, position, responsibility, phone (E.164, as the handler read it), isDisabled and workingHours; a disabled member's user can no longer
 * send SMS, and an email another member or invitation has answers 409. The last ADMIN
 * cannot give up the role (409), however many demotions race.
 */
export async function updateMember(organizationId: string, memberId: number, changes: MemberChanges): Promise<Member> {
  return retryOnStaleWrite(async () => {
    const current = await getMember(organizationId, memberId);
    if (!current) throw new NotFoundError('Member not found');
    const demoted = current.role === 'ADMIN' && changes.role !== undefined && changes.role !== 'ADMIN';
    const keptAdmin = demoted ? (await getAdmins(organizationId)).find((admin) => admin.id !== current.id) : undefined;
    if (demoted && !keptAdmin) throw lastAdmin();
    const updatedAt = await writeMemberChanges(organizationId, current, changes, keptAdmin);
    const { email = current.user.email, ...fields } = changes;
    return { member: v.parse(Member, { ...current, ...defined(fields), user: { ...current.user, email }, updatedAt }), current };
  }).then(async ({ member, current }) => {
    // A new role, or a member disabled or enabled: what acts for them is decided afresh at its very next request.
    if (member.role !== current.role || member.isDisabled !== current.isDisabled) await flushAuthorizerCache();
    return member;
  });
}

/** An invitation as the API takes it; the demo data leaves out the names it does not know. */
export type NewInvitation = Pick<CreateOrganizationInvitationBody, 'email' | 'role'> & Partial<Pick<CreateOrganizationInvitationBody, 'firstName' | 'lastName'>>;

export async function inviteMember(organizationId: string, input: NewInvitation, createdAt = now()): Promise<Invitation> {
  const id = await reserveIds(organizationId, MEMBER_SEQUENCE);
  const invitation: Invitation = { id, email: input.email, role: input.role, firstName: input.firstName ?? null, lastName: input.lastName ?? null, status: 'PENDING', createdAt, updatedAt: createdAt };
  await insertInvitation(organizationId, invitation);
  return invitation;
}

/** The invited person becomes a member with the invitation's id, role and email; names sent win over the invitation's. */
export async function acceptInvitation(organizationId: string, invitationId: number, names: AcceptInvitationBody, acceptedAt = now(), { bySession = true } = {}): Promise<Member> {
  const invitation = await getInvitation(organizationId, invitationId);
  if (!invitation) throw new NotFoundError('Invitation not found');
  // A role above MEMBER is given by a person signed in, never by a key (functions/organization/handlers.ts).
  if (invitation.role !== 'MEMBER' && !bySession) throw sessionRequired(`accept an invitation as ${invitation.role}`);
  const firstName = names.firstName ?? invitation.firstName;
  const lastName = names.lastName ?? invitation.lastName;
  const missing = [...(firstName ? [] : ['firstName']), ...(lastName ? [] : ['lastName'])];
  if (missing.length) throw new ValidationError(missing.map((path) => ({ path, message: `${path} is required: the invitation has none` })));
  const member = newMember({ email: invitation.email, role: invitation.role, firstName: firstName!, lastName: lastName! }, invitation.id, acceptedAt);
  await replaceInvitationWithMember(organizationId, invitation, member, acceptedAt);
  return member;
}

export async function readMember(organizationId: string, memberId: number): Promise<Member> {
  const member = await getMember(organizationId, memberId);
  if (!member) throw new NotFoundError('Member not found');
  return member;
}

/**
 * Removes a member and its user: the userId can no longer send SMS (answered as an unknown user), write notes or be
 * booked; what it already did (messages sent, notes, appointments) keeps its userId. The services that name it lose
 * it from their memberIds in the same transaction. The last ADMIN is kept (409).
 */
export async function removeMember(organizationId: string, memberId: number, { keepKeys = [], keptFor = null }: MemberLeaving = {}): Promise<KeysOfLeavingMember> {
  const keys = await retryOnStaleWrite(async () => {
    const [member, leavingServices, theirKeys, theirPasskeys] = await Promise.all([
      readMember(organizationId, memberId),
      memberLeavingServices(organizationId, memberId, now()),
      activeKeysOf(organizationId, memberId),
      leavingMemberPasskeyWrites(organizationId, memberId),
    ]);
    const notTheirs = keepKeys.filter((keyId) => !theirKeys.includes(keyId));
    if (notTheirs.length) throw new ValidationError([{ path: 'keepKeys', message: `keepKeys must name active keys that act for member ${memberId}: ${notTheirs.join(', ')} ${notTheirs.length === 1 ? 'does' : 'do'} not` }]);
    if (keepKeys.length && keptFor === memberId) throw new ValidationError([{ path: 'keepKeys', message: 'A member removing themself cannot keep their keys: another ADMIN must' }]);
    const kept = { revoke: theirKeys.filter((keyId) => !keepKeys.includes(keyId)), keep: [...new Set(keepKeys)], keptFor };
    // Their keys revoked or passed on, their passkeys gone and their credential ids free, with the member.
    const leavingKeys = [...leavingMemberKeyWrites(organizationId, memberId, kept), ...theirPasskeys];
    const otherAdmin = member.role === 'ADMIN' ? (await getAdmins(organizationId)).find((admin) => admin.id !== member.id) : undefined;
    if (member.role === 'ADMIN' && !otherAdmin) throw lastAdmin();
    await deleteMember(organizationId, member, otherAdmin, leavingServices, leavingKeys);
    return { revokedKeyIds: kept.revoke, keptKeyIds: kept.keep };
  });
  // What acted for the member ends: their sessions go, and every cached answer of the stage with them, so the very next
  // request of a session, key or grant of theirs is decided afresh (and refused: the member is gone).
  await Promise.all([deleteMemberSessions(organizationId, memberId), deleteMemberPushSubscriptions(organizationId, memberId)]);
  await flushAuthorizerCache();
  return keys;
}

/** Whose a leaving member's kept keys become: the member removing them, or (null) the organization's own. */
export interface MemberLeaving {
  keepKeys?: string[];
  keptFor?: number | null;
}

export interface KeysOfLeavingMember {
  revokedKeyIds: string[];
  keptKeyIds: string[];
}

/** The member's keys still active: those a removal revokes or passes on (a revoked or expired one ends nothing). */
async function activeKeysOf(organizationId: string, memberId: number): Promise<string[]> {
  const at = new Date(clock.now());
  return (await listApiKeys(organizationId)).filter((key) => key.memberId === memberId && isActive({ ...key, tokenHash: '' }, at)).map((key) => key.keyId);
}

/** Cancels a pending invitation: accepting it answers 404 from then on, and its email may be invited again. */
export async function cancelInvitation(organizationId: string, invitationId: number): Promise<void> {
  const invitation = await getInvitation(organizationId, invitationId);
  if (!invitation) throw new NotFoundError('Invitation not found');
  await deleteInvitation(organizationId, invitation);
}

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { invitationAudit, memberAudit, memberCounterNames, memberKeys } from './member-entity';
import { INVITATION_CHANGES, MEMBER_CHANGES, fromInvitationItem, fromMemberItem, phoneIndexOf, toInvitationItem, toMemberEmailItem, toMemberItem, toMemberPhoneItem, toUserLookupItem } from './member-entity';
import { ApiError, ConflictError, NotFoundError } from '#shared/errors';
import { now } from '#shared/ids';
import type { Page, PageRequest } from '#shared/pagination';
import type { Invitation, Member, MemberChanges } from './member-schema';
import { counterUpdate } from '#shared/store/counters';
import { queryAll } from '#shared/store/query-page';
import { countedCollectionPage } from '#shared/store/change-log';
import { checkStill, deleteIfStill, deleteItem, insertIfAbsent, transact, type TransactWrite } from '#shared/store/transact';
import { StaleWrite } from '#shared/store/versioned';
import { setFields } from '#shared/store/update-fields';
import { auditDeletion } from '#shared/audit/deletion';
import { normalizeName } from '#shared/store/keys';

/** Every member of the organization, by id: a team is tens of members, not thousands. */
export async function listAllMembers(organizationId: string): Promise<Member[]> {
  return (await queryAll(memberKeys.members(organizationId))).map(fromMemberItem);
}

/** Members and invitations share one sequence, so an accepted invitation keeps its id. */
export const MEMBER_SEQUENCE = 'MEMBER';

const emailTaken = (email: string) => () => new ConflictError(`A member or pending invitation with the email ${email} already exists`);
const phoneTaken = (phone: string) => () => new ApiError(409, `Another member of the organization has the phone ${phone}`, 'PHONE_TAKEN', [{ path: 'phone', message: `phone ${phone} is another member’s` }]);
const memberNotFound = () => new NotFoundError('Member not found');
const invitationNotFound = () => new NotFoundError('Invitation not found');

/** The member with its user account, and its phone's claim when it has one (taken → 409 PHONE_TAKEN). */
function memberWrites(organizationId: string, member: Member, createdAt: string): TransactWrite[] {
  return [
    ...(member.phone ? [insertIfAbsent(toMemberPhoneItem(organizationId, member.phone, member.id), phoneTaken(member.phone))] : []),
    insertIfAbsent(toMemberItem(organizationId, member, createdAt)),
    insertIfAbsent(toUserLookupItem(organizationId, { userId: member.user.id, memberId: member.id, email: member.user.email, isDisabled: member.isDisabled })),
    counterUpdate(organizationId, memberCounterNames.members, 1),
  ];
}

/** The member, its user lookup, its email and phone claims and the members counter, in one transaction: a taken email or phone → 409. */
export async function insertMemberWithUser(organizationId: string, member: Member, createdAt: string): Promise<void> {
  await transact([
    insertIfAbsent(toMemberEmailItem(organizationId, member.user.email, { memberId: member.id }), emailTaken(member.user.email)),
    ...memberWrites(organizationId, member, createdAt),
  ]);
}

export async function getMember(organizationId: string, memberId: number): Promise<Member | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKeys.member(organizationId, memberId), ConsistentRead: true }));
  return Item && fromMemberItem(Item);
}

/** A check, in a transaction, that a member still has a role: if not, the transaction is read again (StaleWrite). */
function stillRole(organizationId: string, id: number, role: string): TransactWrite {
  return checkStill(memberKeys.member(organizationId, id), ['role', role], () => new StaleWrite());
}

/**
 * The member's fields, and its user's disabled flag (what the SMS sender check reads), in one transaction, on condition
 * that the member is still as read (its role, which the last-ADMIN rule was checked against, and its updatedAt, so the
 * answer is the member as written): a member changed or removed meanwhile is read again (StaleWrite). With `keptAdmin`,
 * also on condition that that member is still an ADMIN (an ADMIN giving up the role leaves another).
 */
export async function writeMemberChanges(organizationId: string, member: Member, changes: MemberChanges, keptAdmin?: Member): Promise<string> {
  // updatedAt moves the member in its change log (gsi6 sorts by it) and is the time its member.updated event occurred.
  const updatedAt = now();
  const asRead = { expression: '#role = :readRole AND #updatedAt = :readAt', names: { '#role': 'role', '#updatedAt': 'updatedAt' }, values: { ':readRole': member.role, ':readAt': member.updatedAt } };
  const { email, ...fields } = changes;
  const newEmail = email !== undefined && email !== member.user.email ? email : undefined;
  const user = newEmail === undefined ? undefined : { ...member.user, email: newEmail };
  const lookup = { isDisabled: changes.isDisabled, email: newEmail };
  // The phone a person signs in with finds the member by its index entry, which moves with it.
  const phoneIndex = changes.phone === undefined ? undefined : phoneIndexOf(organizationId, { id: member.id, phone: changes.phone });
  await transact([
    ...(keptAdmin ? [stillRole(organizationId, keptAdmin.id, 'ADMIN')] : []),
    setFields(memberKeys.member(organizationId, member.id), { ...fields, user, updatedAt, ...phoneIndex?.set }, { remove: phoneIndex?.remove, condition: asRead, onConditionFailed: () => new StaleWrite() }),
    ...(Object.values(lookup).some((value) => value !== undefined) ? [setFields(memberKeys.user(organizationId, member.user.id), lookup, { onConditionFailed: memberNotFound })] : []),
    ...(newEmail === undefined ? [] : emailMove(organizationId, member, newEmail)),
    ...(changes.phone === undefined || changes.phone === member.phone ? [] : phoneMove(organizationId, member, changes.phone)),
  ]);
  return updatedAt;
}

/** A member's new phone is claimed as a new member's would be (taken → 409 PHONE_TAKEN), and its old one is freed. */
function phoneMove(organizationId: string, member: Member, phone: string | null): TransactWrite[] {
  return [
    ...(phone ? [insertIfAbsent(toMemberPhoneItem(organizationId, phone, member.id), phoneTaken(phone))] : []),
    ...(member.phone ? [deleteItem(memberKeys.memberPhone(organizationId, member.phone))] : []),
  ];
}

/** A member's new email is claimed as a new member's would be (taken → 409), and its old one is freed. */
function emailMove(organizationId: string, member: Member, email: string): TransactWrite[] {
  const claim = toMemberEmailItem(organizationId, email, { memberId: member.id });
  // Only its case changed: the claim is the member's already, and keeps the spelling given.
  if (normalizeName(email) === normalizeName(member.user.email)) return [{ item: { Put: { TableName: config.tableName, Item: claim } } }];
  return [insertIfAbsent(claim, emailTaken(email)), deleteItem(memberKeys.memberEmail(organizationId, member.user.email))];
}

/** Invitations live under their own sort-key prefix, so neither this Query nor the counter sees them. */
export async function listMembersPage(organizationId: string, request: PageRequest): Promise<Page<Member>> {
  return countedCollectionPage(request, { organizationId, collection: memberKeys.members(organizationId), counter: memberCounterNames.members, changes: MEMBER_CHANGES }, fromMemberItem);
}

/** A pending invitation, its email claim and the invitations counter: it counts nowhere else and is listed nowhere else. */
export async function insertInvitation(organizationId: string, invitation: Invitation): Promise<void> {
  await transact([
    insertIfAbsent(toMemberEmailItem(organizationId, invitation.email, { invitationId: invitation.id }), emailTaken(invitation.email)),
    insertIfAbsent(toInvitationItem(organizationId, invitation)),
    counterUpdate(organizationId, memberCounterNames.invitations, 1),
  ]);
}

export async function getInvitation(organizationId: string, invitationId: number): Promise<Invitation | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKeys.invitation(organizationId, invitationId), ConsistentRead: true }));
  return Item && fromInvitationItem(Item);
}

export async function listInvitationsPage(organizationId: string, request: PageRequest): Promise<Page<Invitation>> {
  return countedCollectionPage(request, { organizationId, collection: memberKeys.invitations(organizationId), counter: memberCounterNames.invitations, changes: INVITATION_CHANGES }, fromInvitationItem);
}

/**
 * The invitation becomes the member in one transaction: the invitation goes (404 when it already has),
 * the email claim passes to the member, and both counters move.
 */
export async function replaceInvitationWithMember(organizationId: string, invitation: Invitation, member: Member, createdAt: string): Promise<void> {
  await transact([
    deleteItem(memberKeys.invitation(organizationId, invitation.id), invitationNotFound),
    { item: { Put: { TableName: config.tableName, Item: toMemberEmailItem(organizationId, invitation.email, { memberId: member.id }) } } },
    ...memberWrites(organizationId, member, createdAt),
    counterUpdate(organizationId, memberCounterNames.invitations, -1),
    ...auditDeletion(organizationId, invitationAudit, invitation.id),
  ]);
}

/** The organization's members with the ADMIN role, read consistently (a team is tens of members, not thousands). */
export async function getAdmins(organizationId: string): Promise<Member[]> {
  const { pk, skPrefix } = memberKeys.members(organizationId);
  const admins: Member[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: '#role = :admin',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ':admin': 'ADMIN' },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    admins.push(...(page.Items ?? []).map(fromMemberItem));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return admins;
}

/**
 * The member, its user lookup (so its userId can no longer send SMS, write notes or be booked) and its email and
 * phone claims (so the address can be invited again, and the phone given another member) go, and the members counter
 * moves, in one transaction. The member must still have the role it was read with, and `keptAdmin`, when given, must
 * still be an ADMIN: of two concurrent removals of the last two admins one fails that check and is read again
 * (StaleWrite).
 */
export async function deleteMember(organizationId: string, member: Member, keptAdmin?: Member, leavingServices: TransactWrite[] = [], leavingKeys: TransactWrite[] = []): Promise<void> {
  await transact([
    // Out of every service's memberIds in the same transaction: no service is left naming a member that is gone.
    ...leavingServices,
    // The keys that acted for the member, revoked or passed on: none is left acting for no one.
    ...leavingKeys,
    // Gone meanwhile, or its role changed: read again.
    deleteIfStill(memberKeys.member(organizationId, member.id), ['role', member.role], () => new StaleWrite()),
    deleteItem(memberKeys.user(organizationId, member.user.id)),
    deleteItem(memberKeys.memberEmail(organizationId, member.user.email)),
    ...(member.phone ? [deleteItem(memberKeys.memberPhone(organizationId, member.phone))] : []),
    counterUpdate(organizationId, memberCounterNames.members, -1),
    ...(keptAdmin ? [stillRole(organizationId, keptAdmin.id, 'ADMIN')] : []),
    ...auditDeletion(organizationId, memberAudit, member.id),
  ]);
}

/** The pending invitation and its email claim go, and the invitations counter moves; accepted or gone meanwhile → 404. */
export async function deleteInvitation(organizationId: string, invitation: Invitation): Promise<void> {
  await transact([
    deleteItem(memberKeys.invitation(organizationId, invitation.id), invitationNotFound),
    // Still the invitation's: an accept hands it to the member in the transaction that removes the invitation.
    deleteIfStill(memberKeys.memberEmail(organizationId, invitation.email), ['invitationId', invitation.id], invitationNotFound),
    counterUpdate(organizationId, memberCounterNames.invitations, -1),
    ...auditDeletion(organizationId, invitationAudit, invitation.id),
  ]);
}

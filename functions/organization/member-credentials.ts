import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { queryAll } from '#shared/store/query-page';
import { deleteItem, type TransactWrite } from '#shared/store/transact';
import type { Collection } from '#shared/store/keys';
import { memberCredentialKeys, memberPushKeys } from './member-credential-keys';

/** Deletes each item of a collection: one Query, then a delete of each. Answers the items, with `attributes` as they were. */
async function deleteEach(collection: Collection, attributes: string[] = []): Promise<Record<string, unknown>[]> {
  const items = await queryAll(collection, ['pk', 'sk', ...attributes]);
  await Promise.all(items.map(({ pk, sk }) => dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: { pk, sk } }))));
  return items;
}

/** Deletes every session of the member. Answers their ends, as they were. */
export async function deleteMemberSessions(organizationId: string, memberId: number): Promise<{ idleEndsAt: string; absoluteEndsAt: string }[]> {
  const items = await deleteEach(memberCredentialKeys.sessionsOfMember(organizationId, memberId), ['idleEndsAt', 'absoluteEndsAt']);
  return items.map((item) => ({ idleEndsAt: String(item.idleEndsAt), absoluteEndsAt: String(item.absoluteEndsAt) }));
}

/** Deletes the browsers a member who leaves subscribed to notices (the sender already skips a member no longer listed). */
export async function deleteMemberPushSubscriptions(organizationId: string, memberId: number): Promise<void> {
  await deleteEach(memberPushKeys.pushSubscriptionsOfMember(organizationId, memberId));
}

/** The writes that remove every passkey of a member who leaves and free their credential ids, for the removal's own transaction. */
export async function leavingMemberPasskeyWrites(organizationId: string, memberId: number): Promise<TransactWrite[]> {
  const passkeys = memberCredentialKeys.passkeysOfMember(organizationId, memberId);
  const items = await queryAll(passkeys, ['sk']);
  // A passkey's credential id is the end of its sort key.
  const credentialIds = items.map((item) => String(item.sk).slice(String(passkeys.skPrefix).length));
  return credentialIds.flatMap((id) => [deleteItem(memberCredentialKeys.passkey(organizationId, memberId, id)), deleteItem(memberCredentialKeys.credentialClaim(id))]);
}

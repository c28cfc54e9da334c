import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { queryAll } from '#shared/store/query-page';
import { deleteItem, type TransactWrite } from '#shared/store/transact';
import { memberCredentialKeys } from './member-credential-keys';

/** Deletes every session of the member: one Query of the member's sessions, then a delete of each. Answers their ends, as they were. */
export async function deleteMemberSessions(organizationId: string, memberId: number): Promise<{ idleEndsAt: string; absoluteEndsAt: string }[]> {
  const items = await queryAll(memberCredentialKeys.sessionsOfMember(organizationId, memberId), ['pk', 'sk', 'idleEndsAt', 'absoluteEndsAt']);
  await Promise.all(items.map(({ pk, sk }) => dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: { pk, sk } }))));
  return items.map((item) => ({ idleEndsAt: String(item.idleEndsAt), absoluteEndsAt: String(item.absoluteEndsAt) }));
}

/** The writes that remove every passkey of a member who leaves and free their credential ids, for the removal's own transaction. */
export async function leavingMemberPasskeyWrites(organizationId: string, memberId: number): Promise<TransactWrite[]> {
  const passkeys = memberCredentialKeys.passkeysOfMember(organizationId, memberId);
  const items = await queryAll(passkeys, ['sk']);
  // A passkey's credential id is the end of its sort key.
  const credentialIds = items.map((item) => String(item.sk).slice(String(passkeys.skPrefix).length));
  return credentialIds.flatMap((id) => [deleteItem(memberCredentialKeys.passkey(organizationId, memberId, id)), deleteItem(memberCredentialKeys.credentialClaim(id))]);
}

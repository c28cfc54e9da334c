import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { isMemberRole, type MemberRole } from '#shared/member-roles';
import { memberKey } from '#shared/store/keys';

/*
 * A member's role as stored now, apart from ./member-store.ts: the authorizer and the token endpoint read it for every
 * credential acting for a member they check, and the store's schemas would be their cold start's.
 */

/** The member's role, if the member is still there and not disabled: read by its key alone, consistently. */
export async function activeRoleOf(organizationId: string, memberId: number): Promise<MemberRole | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: config.tableName, Key: memberKey(organizationId, memberId), ProjectionExpression: '#role, isDisabled', ExpressionAttributeNames: { '#role': 'role' }, ConsistentRead: true }),
  );
  return Item && Item.isDisabled !== true && isMemberRole(Item.role) ? Item.role : undefined;
}

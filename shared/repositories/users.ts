import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { UserLookup } from '../entities/member';
import { keys } from '../entities/keys';

/** A member's user account (USER#<userId>, written with the member by createMemberWithUser). */
export type OrganizationUser = UserLookup;

export function fromOrganizationUserItem(item: Record<string, unknown>): OrganizationUser {
  return { userId: String(item.userId), memberId: Number(item.memberId), email: String(item.email) };
}

/** The organization's user with this id, or undefined (unknown, or another organization's). */
export async function findOrganizationUser(organizationId: string, userId: string): Promise<OrganizationUser | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.user(organizationId, userId) }));
  return Item ? fromOrganizationUserItem(Item) : undefined;
}

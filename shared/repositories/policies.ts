import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { counterNames, keys } from '../entities/keys';
import { fromPolicyItem, toPolicyItem } from '../entities/policy';
import { NotFoundError } from '../errors';
import { now } from '../ids';
import type { Page } from '../pagination';
import type { NewPolicy, Policy, PolicyChanges } from '../schemas/policies';
import { counterUpdate } from './counters';
import { countedPage } from './query-page';
import { reserveIds } from './sequences';
import { insertIfAbsent, transact } from './transact';
import { defined } from '../entities/changes';

export const POLICY_SEQUENCE = 'POLICY';
export const POLICY_NOT_FOUND = 'Policy not found';

/** The policy and the policies counter in one transaction. */
export async function createPolicy(organizationId: string, fields: NewPolicy, at = now()): Promise<Policy> {
  const policy: Policy = { id: await reserveIds(organizationId, POLICY_SEQUENCE), ...fields };
  await transact([insertIfAbsent(toPolicyItem(organizationId, policy, at)), counterUpdate(organizationId, counterNames.policies, 1)]);
  return policy;
}

export async function listPoliciesPage(organizationId: string, page: number, limit: number): Promise<Page<Policy>> {
  const { items, totalCount } = await countedPage(keys.policies(organizationId), organizationId, counterNames.policies, page, limit);
  return { items: items.map(fromPolicyItem), totalCount: totalCount ?? 0, page, limit };
}

/** One conditional update: policies have no rule across fields, so nothing needs reading first. */
export async function updatePolicy(organizationId: string, policyId: number, changes: PolicyChanges): Promise<Policy> {
  const fields = Object.entries({ ...defined(changes), updatedAt: now() });
  const { Attributes } = await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.policy(organizationId, policyId),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((error: unknown) => {
      throw (error as Error).name === 'ConditionalCheckFailedException' ? new NotFoundError(POLICY_NOT_FOUND) : error;
    });
  return fromPolicyItem(Attributes ?? {});
}

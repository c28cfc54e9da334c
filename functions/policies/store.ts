import { counterNames, keys } from '../../shared/store/keys';
import { fromPolicyItem, toPolicyItem } from './entity';
import { NotFoundError } from '../../shared/errors';
import { now } from '../../shared/ids';
import type { Page, PageRequest } from '../../shared/pagination';
import type { CreatePolicyBody, Policy, PolicyChanges } from './schema';
import { counterUpdate } from '../../shared/store/counters';
import { countedPage } from '../../shared/store/query-page';
import { reserveIds } from '../../shared/store/sequences';
import { deleteItem, insertIfAbsent, transact } from '../../shared/store/transact';
import { updateExistingItem } from '../../shared/store/update-fields';

export const POLICY_SEQUENCE = 'POLICY';
export const POLICY_NOT_FOUND = 'Policy not found';

/** The policy and the policies counter in one transaction. */
export async function createPolicy(organizationId: string, fields: CreatePolicyBody, at = now()): Promise<Policy> {
  const policy: Policy = { id: await reserveIds(organizationId, POLICY_SEQUENCE), ...fields };
  await transact([insertIfAbsent(toPolicyItem(organizationId, policy, at)), counterUpdate(organizationId, counterNames.policies, 1)]);
  return policy;
}

export async function listPoliciesPage(organizationId: string, { page, limit, cursor }: PageRequest): Promise<Page<Policy>> {
  const { items, totalCount, nextCursor } = await countedPage(keys.policies(organizationId), organizationId, counterNames.policies, { page, limit, cursor });
  return { items: items.map(fromPolicyItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
}

/** One conditional update: policies have no rule across fields, so nothing needs reading first. */
export async function updatePolicy(organizationId: string, policyId: number, changes: PolicyChanges): Promise<Policy> {
  return fromPolicyItem(await updateExistingItem(keys.policy(organizationId, policyId), { ...changes, updatedAt: now() }, () => new NotFoundError(POLICY_NOT_FOUND)));
}

export async function deletePolicy(organizationId: string, policyId: number): Promise<void> {
  await transact([deleteItem(keys.policy(organizationId, policyId), () => new NotFoundError(POLICY_NOT_FOUND)), counterUpdate(organizationId, counterNames.policies, -1)]);
}

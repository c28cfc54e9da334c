import * as v from 'valibot';
import { Policy } from './schema';
import { keys } from '../../shared/store/keys';

/** Timestamps are kept for audit; the API's Policy shows only id, title, content and isActive. */
export function toPolicyItem(organizationId: string, policy: Policy, at: string) {
  return { ...keys.policy(organizationId, policy.id), entity: 'POLICY', ...policy, createdAt: at, updatedAt: at };
}

export const fromPolicyItem = (item: Record<string, unknown>): Policy => v.parse(Policy, item);

import type { Policy } from '../schemas/policies';
import { keys } from './keys';

/** Timestamps are kept for audit; the spec's Policy shows only id, title, content and isActive. */
export type PolicyItem = Policy & { pk: string; sk: string; entity: 'POLICY'; createdAt: string; updatedAt: string };

export function toPolicyItem(organizationId: string, policy: Policy, at: string): PolicyItem {
  return { ...keys.policy(organizationId, policy.id), entity: 'POLICY', ...policy, createdAt: at, updatedAt: at };
}

export function fromPolicyItem(item: Record<string, unknown>): Policy {
  const i = item as PolicyItem;
  return { id: i.id, title: i.title, content: i.content, isActive: i.isActive ?? true };
}

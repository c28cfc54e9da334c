import { fromWebhookItem, publicWebhook, webhookAudit } from './entity';
import type { EventSource, ResourceChanges } from '#shared/resource';

/**
 * `webhook.disabled`: the service disabled a subscription, its `disabledReason` saying why (GONE, FAILING, EXPIRED),
 * with the subscription as the API returns it. A subscription its owner disables (isEnabled false, no reason) has none:
 * the owner knows.
 */
const disabledEvents: EventSource = {
  entity: 'WEBHOOK',
  data: 'Webhook',
  types: ['webhook.disabled'],
  eventsOf: ({ kind, oldItem, newItem }) =>
    kind === 'MODIFY' && oldItem?.isEnabled === true && newItem?.isEnabled === false && newItem.disabledReason ? [{ type: 'webhook.disabled', data: publicWebhook(fromWebhookItem(newItem)) }] : [],
};

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [disabledEvents],
  audited: [webhookAudit],
};

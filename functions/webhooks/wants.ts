import type { WebhookRecord } from './entity';

/** Whether the subscription asked for this event type. */
export const wants = (webhook: Pick<WebhookRecord, 'isEnabled' | 'events'>, type: string) => webhook.isEnabled && (webhook.events.includes('*') || webhook.events.includes(type));

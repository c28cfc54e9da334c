import { hasExpired, type WebhookRecord } from './entity';
import { clock } from '#shared/clock';

/**
 * Whether the subscription asked for this event type and receives events now (enabled, not past its `expiresAt`). Its
 * own module, so the stream consumer's fan-out reads it without the rules that seal and open secrets.
 */
export const wants = (webhook: Pick<WebhookRecord, 'isEnabled' | 'events' | 'expiresAt'>, type: string, at = clock.now()) =>
  webhook.isEnabled && !hasExpired(webhook, at) && (webhook.events.includes('*') || webhook.events.includes(type));

import type { Event } from '../events/schema';
import type { EventType } from '../events/types';

/** Why the service disabled a subscription, as an alert says it. */
const WEBHOOK_DISABLED_BECAUSE: Record<string, string> = {
  FAILING: 'its deliveries failed for 24 hours',
  EXPIRED: 'its expiresAt passed',
  GONE: 'its receiver answered 410 Gone',
};

/**
 * Owner alerts: events an organization's admins must hear of at once, as an SMS to their phones, beside the event
 * itself (which a webhook or a workflow may be what stopped). Each entry maps an event type to the text, or to
 * nothing for an event of the type that needs no alert; a new kind of alert is one more entry.
 * Apart from the sending (./owner-alerts.ts), which the stream consumer loads only for an event named here.
 */
export const OWNER_ALERTS: Partial<Record<EventType, (event: Event) => string | undefined>> = {
  'webhook.disabled': (event) => {
    const webhook = event.data as { url: string; disabledReason: string | null };
    const why = webhook.disabledReason ? WEBHOOK_DISABLED_BECAUSE[webhook.disabledReason] : undefined;
    // Only what the service disabled: an owner who turns a subscription off knows.
    if (!why) return undefined;
    return `Sales Pipeline: your webhook to ${new URL(webhook.url).host} was disabled because ${why}. Nothing is sent to it until it is enabled again (an n8n workflow: deactivate and activate it).`;
  },
};

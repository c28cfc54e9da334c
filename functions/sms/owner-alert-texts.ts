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
  // Once per source and day: one address posted its share of the inbound day, so a bot may be filling the forms.
  'inbound_endpoint.source_limited': (event) => {
    const limited = event.data as { source: string; limit: number; until: string };
    return `Sales Pipeline: ${limited.source} sent ${limited.limit} posts to your inbound URLs today; its posts are refused until ${limited.until.slice(11, 16)} UTC. Other senders still get through.`;
  },
};

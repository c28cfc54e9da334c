import type { Event } from '../events/schema';
import type { EventType } from '../events/types';
import type { NoticeKind } from './entity';

/** What a push says: its kind (the members' choice), the lead it is about, its words, and the console screen it opens. */
export interface Notice {
  kind: NoticeKind;
  leadId?: string;
  title: string;
  body: string;
  /** Below the console's base: a tap opens it. */
  path: string;
}

type Data = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
/** A notification shows a line or two: a long text is cut at a character, never inside one. */
const shortened = (body: string, max = 140) => (body.length <= max ? body : `${Array.from(body).slice(0, max - 1).join('')}…`);

/**
 * The events a member may be pushed a notice of, each mapped to the notice, or to nothing for an event of the type that
 * needs none. Apart from the sending (./send.ts), which the stream consumer loads only for an event named here.
 */
export const PUSH_NOTICES: Partial<Record<EventType, (event: Event) => Notice | undefined>> = {
  'inquiry.created': ({ data }) => {
    const inquiry = data as Data;
    if (inquiry.source !== 'CALL' || inquiry.callOutcome !== 'MISSED') return undefined;
    return { kind: 'MISSED_CALL', leadId: text(inquiry.leadId), title: 'Missed call', body: shortened(text(inquiry.summary) ?? 'Nobody answered. Call them back.'), path: `/inbox/${String(inquiry.id)}` };
  },
  'sms.received': ({ data }) => {
    const sms = data as Data;
    return { kind: 'CUSTOMER_REPLY', leadId: text(sms.leadId), title: 'New text', body: shortened(String(sms.body ?? '')), path: `/inbox/${String(sms.inquiryId)}` };
  },
  'webhook.disabled': ({ data }) => {
    const webhook = data as Data;
    // Only what the service disabled for failing: an owner who turns one off knows, and an expiry was asked for.
    if (webhook.disabledReason !== 'FAILING') return undefined;
    return { kind: 'WEBHOOK_FAILING', title: 'Webhook turned off', body: `Deliveries to ${new URL(String(webhook.url)).host} failed for 24 hours. Nothing is sent to it until it is turned on again.`, path: '/settings' };
  },
};

/** The notice an event calls for, if any. */
export const noticeOf = (event: Event): Notice | undefined => PUSH_NOTICES[event.type as EventType]?.(event);

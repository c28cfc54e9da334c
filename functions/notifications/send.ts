import type { RequestOptions } from 'node:https';
import webPush from 'web-push';
import { logger } from '#shared/observability';
import { outboundRequest } from '#shared/net/outbound';
import { privateUrls } from '#shared/private-urls';
import { readItem } from '#shared/store/read-item';
import type { Event } from '../events/schema';
import { leadKeys } from '../leads/entity';
import { CONSOLE_PATH } from '../sign-in/site';
import { listAllMembers } from '../organization/member-store';
import type { Member } from '../organization/member-schema';
import type { StoredSubscription } from './entity';
import { noticeOf, type Notice } from './notices';
import { forgetSubscription, noticesForRole, organizationSubscriptions, vapidKeys } from './store';

/**
 * How long a push service keeps a notice for a phone that is off, in seconds: a missed call an hour old is still worth
 * a call back; one from yesterday is on the Inbox.
 */
export const NOTICE_TTL_SECONDS = 4 * 3600;
/** A push service answers in well under a second; one that does not is given up on, never waited for by the stream. */
export const PUSH_TIMEOUT_MS = 5_000;
/** Who the push services may write to about this sender (VAPID's `sub`), set per deployment. */
const SUBJECT = process.env.WEB_PUSH_SUBJECT || 'mailto:push@sales-pipeline.invalid';

/** What one push came to: sent, gone (the subscription deleted), or failed (logged; a notice is not sent again). */
export type PushOutcome = 'SENT' | 'GONE' | 'FAILED';

/** POSTs the encrypted notice as web-push made it, under the outbound guard; resolves with the status, or null without one. */
function post(details: { endpoint: string; headers: Record<string, string | number>; body: Buffer | null }): Promise<number | null> {
  const target = new URL(details.endpoint);
  return new Promise((resolve) => {
    const options: RequestOptions = { method: 'POST', headers: details.headers as RequestOptions['headers'], timeout: PUSH_TIMEOUT_MS, signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) };
    try {
      const request = outboundRequest(target, { local: privateUrls.allowed }, options, (answer) => {
        resolve(answer.statusCode ?? null);
        answer.resume();
        answer.on('error', () => undefined);
      });
      request.on('timeout', () => request.destroy());
      request.on('error', () => resolve(null));
      request.end(details.body ?? undefined);
    } catch {
      // Refused before connecting: a subscription saved under other rules, never reached now.
      resolve(null);
    }
  });
}

/**
 * The push's request, encrypted for the browser and signed with the organization's key; undefined when the library
 * cannot (a key it refuses): a notice is now or never, so a stream record is not handed again for it.
 */
function signed(subscription: StoredSubscription, payload: string, topic: string, keys: { publicKey: string; privateKey: string }) {
  try {
    return webPush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload, {
      vapidDetails: { subject: SUBJECT, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: NOTICE_TTL_SECONDS,
      urgency: 'high',
      topic,
      contentEncoding: 'aes128gcm',
    });
  } catch {
    return undefined;
  }
}

/** Sends one notice to one subscription: the payload encrypted for the browser (aes128gcm) and signed with the organization's VAPID key. */
export async function pushTo(organizationId: string, subscription: StoredSubscription, payload: string, topic: string, keys: { publicKey: string; privateKey: string }): Promise<PushOutcome> {
  const details = signed(subscription, payload, topic, keys);
  if (!details) {
    logger.error('push not signed', { organizationId, subscriptionId: subscription.id });
    return 'FAILED';
  }
  const status = await post(details as unknown as Parameters<typeof post>[0]);
  if (status !== null && status >= 200 && status < 300) return 'SENT';
  if (status === 404 || status === 410) {
    await forgetSubscription(organizationId, subscription);
    return 'GONE';
  }
  logger.warn('push not sent', { organizationId, subscriptionId: subscription.id, status });
  return 'FAILED';
}

/** The lead's name and assignee, for a notice about it. */
async function leadOf(organizationId: string, leadId: string | undefined): Promise<{ name?: string; assignedMemberId?: number } | undefined> {
  if (!leadId) return undefined;
  const lead = await readItem(leadKeys.lead(organizationId, leadId));
  if (!lead) return undefined;
  const name = [lead.firstName, lead.lastName].filter((part) => typeof part === 'string' && part).join(' ');
  return { ...(name ? { name } : {}), ...(typeof lead.assignedMemberId === 'number' ? { assignedMemberId: lead.assignedMemberId } : {}) };
}

/**
 * The members' subscriptions a notice goes to: those that asked for its kind, of members still in the organization
 * and enabled whose role receives it; a notice about a lead someone is assigned goes to that member alone.
 */
function recipients(notice: Notice, subscriptions: StoredSubscription[], members: readonly Member[], assignedMemberId: number | undefined): StoredSubscription[] {
  const receiving = new Set(members.filter((member) => !member.isDisabled && noticesForRole(member.role).includes(notice.kind)).map((member) => member.id));
  return subscriptions.filter((subscription) => subscription.notify.includes(notice.kind) && receiving.has(subscription.memberId) && (assignedMemberId === undefined || subscription.memberId === assignedMemberId));
}

/**
 * Pushes each event's notice to the members who asked for it: the organization's subscriptions read first, its members,
 * the lead and its key only when one would be sent to. A push service's failure is logged and the notice dropped (a
 * notice is now or never); the Topic header (the event's id) lets a push service keep one of a notice sent twice when
 * a stream batch is handed again.
 */
export async function pushNotices(events: readonly Event[]): Promise<PushOutcome[]> {
  const outcomes: PushOutcome[] = [];
  for (const event of events) {
    const notice = noticeOf(event);
    if (!notice) continue;
    const { organizationId } = event;
    const subscriptions = (await organizationSubscriptions(organizationId)).filter((subscription) => subscription.notify.includes(notice.kind));
    if (subscriptions.length === 0) continue;
    const [members, lead, keys] = await Promise.all([listAllMembers(organizationId), leadOf(organizationId, notice.leadId), vapidKeys(organizationId)]);
    if (!keys) continue;
    const to = recipients(notice, subscriptions, members, lead?.assignedMemberId);
    const title = lead?.name ? `${notice.title} · ${lead.name}` : notice.title;
    const payload = JSON.stringify({ title, body: notice.body, url: `${CONSOLE_PATH}${notice.path}`, tag: notice.kind });
    // Topic: at most 32 URL-safe characters.
    const topic = event.id.replace(/[^A-Za-z0-9_-]/g, '').slice(-32);
    outcomes.push(...(await Promise.all(to.map((subscription) => pushTo(organizationId, subscription, payload, topic, keys)))));
  }
  return outcomes;
}

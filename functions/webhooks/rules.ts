import { publicWebhook, type WebhookRecord } from './entity';
import { BadRequestError, NotFoundError } from '../../shared/errors';
import { newId, now } from '../../shared/ids';
import { createWebhook, getWebhook, updateWebhook, WEBHOOK_NOT_FOUND } from './store';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook } from './schema';
import { resolvedRefusalOf } from '../../shared/webhooks/destination';
import { newSigningSecret } from '../../shared/webhooks/signature';

/** A rotated-out secret keeps signing beside the new one this long, so receivers can switch without losing deliveries. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

async function assertDeliverable(url: string): Promise<void> {
  const refusal = await resolvedRefusalOf(new URL(url));
  if (refusal) throw new BadRequestError(refusal, 'VALIDATION_ERROR', [{ path: 'url', message: refusal }]);
}

/** The subscription and its first secret; the secret is answered here and on rotation only. */
export async function subscribe(organizationId: string, body: CreateWebhookBody): Promise<Webhook & { secret: string }> {
  await assertDeliverable(body.url);
  const at = now();
  const secret = newSigningSecret();
  const webhook: WebhookRecord = {
    id: newId('webhook'),
    url: body.url,
    events: body.events,
    description: body.description,
    isEnabled: true,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
    secrets: [{ secret, expiresAt: null }],
    failingSince: null,
  };
  await createWebhook(organizationId, webhook);
  return { ...publicWebhook(webhook), secret };
}

/**
 * Re-enabling (isEnabled: true) clears why the service disabled it and restarts the failure clock; so does a `url` other
 * than the one it has, whose receiver has failed nothing yet: the old one's failures must not disable it at its first.
 * The same url sent again (a form that saves every field) keeps the clock, or a dead receiver would never be disabled.
 */
export async function changeWebhook(organizationId: string, webhookId: string, body: UpdateWebhookBody): Promise<Webhook> {
  if (body.url !== undefined) await assertDeliverable(body.url);
  const reenabled = body.isEnabled === true ? { disabledReason: null, failingSince: null } : {};
  const movesReceiver = body.url !== undefined && (await getWebhook(organizationId, webhookId))?.url !== body.url;
  const newReceiver = movesReceiver ? { failingSince: null } : {};
  return publicWebhook(await updateWebhook(organizationId, webhookId, { ...body, ...newReceiver, ...reenabled, updatedAt: now() }));
}

/** A new secret signs from now on; the previous one keeps signing for 24 hours beside it, then stops. */
export async function rotateSecret(organizationId: string, webhookId: string): Promise<Webhook & { secret: string }> {
  const webhook = await getWebhook(organizationId, webhookId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  const at = new Date();
  const secret = newSigningSecret();
  const overlapEnds = new Date(at.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const previous = webhook.secrets.filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > at.getTime()).map((s) => ({ secret: s.secret, expiresAt: s.expiresAt ?? overlapEnds }));
  const updated = await updateWebhook(organizationId, webhookId, { secrets: [{ secret, expiresAt: null }, ...previous], updatedAt: at.toISOString() }, { unchangedSince: webhook.updatedAt });
  return { ...publicWebhook(updated), secret };
}

/** The secrets that sign a delivery now: the current one and any rotated out less than 24 hours ago. */
export function activeSecrets(webhook: WebhookRecord, at = Date.now()): string[] {
  return webhook.secrets.filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > at).map((s) => s.secret);
}

/** Whether the subscription asked for this event type. */
export const wants = (webhook: Pick<WebhookRecord, 'isEnabled' | 'events'>, type: string) => webhook.isEnabled && (webhook.events.includes('*') || webhook.events.includes(type));

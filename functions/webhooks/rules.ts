import { publicWebhook, type SigningSecret, type WebhookRecord } from './entity';
import { ApiError, BadRequestError, NotFoundError } from '#shared/errors';
import { newId, now } from '#shared/ids';
import { createWebhook, getWebhook, updateWebhook, WEBHOOK_NOT_FOUND } from './store';
import { MAX_ROTATIONS_PER_HOUR, ROTATION_OVERLAP_HOURS, type CreateWebhookBody, type UpdateWebhookBody, type Webhook } from './schema';
import { resolvedRefusalOf } from './destination';
import { newSigningSecret } from '#shared/signed-posts';
import { sealedSecrets, signingSecretsOf } from './signing-secrets';
export { wants } from './wants';

const ROTATION_OVERLAP_MS = ROTATION_OVERLAP_HOURS * 3_600_000;
const HOUR_MS = 3_600_000;

async function assertDeliverable(url: string): Promise<void> {
  const refusal = await resolvedRefusalOf(new URL(url));
  if (refusal) throw new BadRequestError(refusal, 'VALIDATION_ERROR', [{ path: 'url', message: refusal }]);
}

/** The subscription and its first secret; the secret is answered here and on rotation only. */
export async function subscribe(organizationId: string, body: CreateWebhookBody): Promise<Webhook & { secret: string }> {
  await assertDeliverable(body.url);
  const at = now();
  const secret = newSigningSecret();
  const id = newId('webhook');
  const webhook: WebhookRecord = {
    id,
    url: body.url,
    events: body.events,
    description: body.description,
    isEnabled: true,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
    secrets: await sealedSecrets(organizationId, id, [{ secret, expiresAt: null }]),
    rotatedAt: [],
    failingSince: null,
    failuresInARow: 0,
    pausedUntil: null,
  };
  await createWebhook(organizationId, webhook);
  return { ...publicWebhook(webhook), secret };
}

/** A receiver that has failed nothing yet: no failure clock, no failures in a row, no pause. */
const FRESH_RECEIVER = { failingSince: null, failuresInARow: 0, pausedUntil: null };

/**
 * Re-enabling (isEnabled: true) clears why the service disabled it and restarts the failure clock (and any pause); so does a `url` other
 * than the one it has, whose receiver has failed nothing yet: the old one's failures must not disable it at its first.
 * The same url sent again (a form that saves every field) keeps the clock, or a dead receiver would never be disabled.
 */
export async function changeWebhook(organizationId: string, webhookId: string, body: UpdateWebhookBody): Promise<Webhook> {
  if (body.url !== undefined) await assertDeliverable(body.url);
  const reenabled = body.isEnabled === true ? { disabledReason: null, ...FRESH_RECEIVER } : {};
  const movesReceiver = body.url !== undefined && (await getWebhook(organizationId, webhookId))?.url !== body.url;
  const newReceiver = movesReceiver ? FRESH_RECEIVER : {};
  return publicWebhook(await updateWebhook(organizationId, webhookId, { ...body, ...newReceiver, ...reenabled, updatedAt: now() }));
}

/** A 429 the error middleware answers with `Retry-After`: the seconds until the oldest rotation of the hour leaves it. */
function tooManyRotations(waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const error = new ApiError(429, `A webhook's secret may be rotated at most ${MAX_ROTATIONS_PER_HOUR} times an hour; retry in ${seconds} s`, 'TOO_MANY_ROTATIONS');
  error.headers = { 'Retry-After': String(seconds) };
  return error;
}

/**
 * A new secret signs from now on; the one it replaces keeps signing beside it for 24 hours, then stops. Any older
 * one stops at once, so the item holds two secrets and a delivery carries two signatures at most. At most
 * MAX_ROTATIONS_PER_HOUR rotations in any hour: another answers 429 and changes nothing.
 */
export async function rotateSecret(organizationId: string, webhookId: string): Promise<Webhook & { secret: string }> {
  const webhook = await getWebhook(organizationId, webhookId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  const at = Date.now();
  const lastHour = webhook.rotatedAt.filter((rotated) => Date.parse(rotated) > at - HOUR_MS);
  if (lastHour.length >= MAX_ROTATIONS_PER_HOUR) throw tooManyRotations(Math.min(...lastHour.map(Date.parse)) + HOUR_MS - at);
  const secret = newSigningSecret();
  const [current] = activeSecrets(await signingSecretsOf(organizationId, webhook), at);
  const replaced = current ? [{ secret: current, expiresAt: new Date(at + ROTATION_OVERLAP_MS).toISOString() }] : [];
  // Sealed whatever the item held before: a list written before sealing is sealed by its first rotation.
  const changes = { secrets: await sealedSecrets(organizationId, webhookId, [{ secret, expiresAt: null }, ...replaced]), rotatedAt: [...lastHour, new Date(at).toISOString()], updatedAt: new Date(at).toISOString() };
  // On condition the subscription is as read: two rotations at once would each keep a secret the other dropped.
  const updated = await updateWebhook(organizationId, webhookId, changes, { unchangedSince: webhook.updatedAt });
  return { ...publicWebhook(updated), secret };
}

/**
 * The secrets that sign a delivery now, newest first: the current one and the one it replaced, while its 24 hours
 * last. Never more than two, whatever an item written before rotations dropped older secrets still holds.
 */
export function activeSecrets(secrets: SigningSecret[], at = Date.now()): string[] {
  return secrets
    .filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > at)
    .slice(0, 2)
    .map((s) => s.secret);
}

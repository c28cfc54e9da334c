import { hasExpired, publicWebhook, type SigningSecret, type WebhookRecord } from './entity';
import { clock } from '#shared/clock';
import { ApiError, BadRequestError, changedMeanwhile, NotFoundError, ValidationError } from '#shared/errors';
import { newId, now } from '#shared/ids';
import { claimHolder, createWebhook, getWebhook, SubscriptionClaimed, updateWebhook, WEBHOOK_NOT_FOUND } from './store';
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

/** What a create answers: the subscription with its secret, and whether it made it (201) or found it (200). */
export interface Subscribed {
  webhook: Webhook & { secret: string };
  created: boolean;
}

/** How often a create takes over a stale claim before it answers 409: each retry follows another create's success. */
const CLAIM_ATTEMPTS = 3;

/**
 * The subscription and its first secret; the secret is answered here and on rotation only. Subscribing a url to a
 * set of events an enabled subscription of the organization already has (the same url, the same events in any order)
 * answers that one, secret included, rather than making a second: a platform that subscribes again on every
 * activation keeps one, and a new `expiresAt` it gives moves that one's end. Its claim of the url and events, put in the create's transaction, makes two creates at once
 * one subscription; a claim held by a subscription since disabled, deleted or moved to other events is taken over.
 */
export async function subscribe(organizationId: string, body: CreateWebhookBody): Promise<Subscribed> {
  await assertDeliverable(body.url);
  let staleClaimOf: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const made = await created(organizationId, body, staleClaimOf);
    if (made) return { webhook: made, created: true };
    const holderId = await claimHolder(organizationId, body.url, body.events);
    const holder = holderId === undefined ? undefined : await getWebhook(organizationId, holderId);
    // Its secret opened to answer it again; one that does not open (not its own) is no subscription to answer.
    const secret = holder && isLive(holder) && sameSubscription(holder, body) ? await currentSecret(organizationId, holder) : undefined;
    if (holder && secret !== undefined) return { webhook: { ...publicWebhook(await renewed(organizationId, holder, body)), secret }, created: false };
    if (attempt === CLAIM_ATTEMPTS) throw changedMeanwhile();
    staleClaimOf = holderId;
  }
}

/**
 * A subscribe again that gives an `expiresAt` other than the subscription's sets it, later or sooner, with its expiry
 * item (updateWebhook): a platform renewing an expiring hook this way keeps it. Without one, it keeps the one it has.
 */
async function renewed(organizationId: string, holder: WebhookRecord, body: CreateWebhookBody): Promise<WebhookRecord> {
  if (body.expiresAt === null || (holder.expiresAt !== null && Date.parse(holder.expiresAt) === Date.parse(body.expiresAt))) return holder;
  return updateWebhook(organizationId, holder.id, { expiresAt: body.expiresAt, updatedAt: now() });
}

/** The subscription made for the body, or undefined when another holds the claim of its url and events. */
async function created(organizationId: string, body: CreateWebhookBody, staleClaimOf: string | undefined): Promise<(Webhook & { secret: string }) | undefined> {
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
    expiresAt: body.expiresAt,
    createdAt: at,
    updatedAt: at,
    secrets: await sealedSecrets(organizationId, id, [{ secret, expiresAt: null }]),
    rotatedAt: [],
    failingSince: null,
    failuresInARow: 0,
    pausedUntil: null,
  };
  try {
    await createWebhook(organizationId, webhook, staleClaimOf);
  } catch (error) {
    if (error instanceof SubscriptionClaimed) return undefined;
    throw error;
  }
  return { ...publicWebhook(webhook), secret };
}

/** The same url exactly, and the same events in any order. */
const sameSubscription = (webhook: Pick<WebhookRecord, 'url' | 'events'>, body: Pick<CreateWebhookBody, 'url' | 'events'>) =>
  webhook.url === body.url && webhook.events.length === new Set(body.events).size && body.events.every((type) => webhook.events.includes(type));

/** A subscription that receives events: enabled, and not past its `expiresAt`. */
export const isLive = (webhook: WebhookRecord, at = clock.now()) => webhook.isEnabled && !hasExpired(webhook, at);

/** Ended by its `expiresAt`: past it while enabled, or disabled for it. */
const hasEnded = (webhook: WebhookRecord) => (webhook.isEnabled && hasExpired(webhook)) || (!webhook.isEnabled && webhook.disabledReason === 'EXPIRED');

/** A receiver that has failed nothing yet: no failure clock, no failures in a row, no pause. */
const FRESH_RECEIVER = { failingSince: null, failuresInARow: 0, pausedUntil: null };

/**
 * Re-enabling (isEnabled: true) clears why the service disabled it and restarts the failure clock (and any pause); so does a `url` other
 * than the one it has, whose receiver has failed nothing yet: the old one's failures must not disable it at its first.
 * The same url sent again (a form that saves every field) keeps the clock, or a dead receiver would never be disabled.
 * A new `expiresAt` (or null) for a subscription that has expired starts it again, as re-enabling does; re-enabling
 * one whose `expiresAt` has passed, without a new one, answers 400 naming expiresAt.
 */
export async function changeWebhook(organizationId: string, webhookId: string, body: UpdateWebhookBody): Promise<Webhook> {
  if (body.url !== undefined) await assertDeliverable(body.url);
  const current = body.url !== undefined || body.expiresAt !== undefined || body.isEnabled === true ? await getWebhook(organizationId, webhookId) : undefined;
  const endsAt = body.expiresAt !== undefined ? body.expiresAt : (current?.expiresAt ?? null);
  if (body.isEnabled === true && endsAt !== null && Date.parse(endsAt) <= clock.now()) {
    throw new ValidationError([{ path: 'expiresAt', message: 'expiresAt has passed: give a later one, or null, to enable the subscription again' }]);
  }
  const renewed = body.expiresAt !== undefined && body.isEnabled !== false && current !== undefined && hasEnded(current) ? { isEnabled: true, disabledReason: null, ...FRESH_RECEIVER } : {};
  const reenabled = body.isEnabled === true ? { disabledReason: null, ...FRESH_RECEIVER } : {};
  const movesReceiver = body.url !== undefined && current?.url !== body.url;
  const newReceiver = movesReceiver ? FRESH_RECEIVER : {};
  // A new expiresAt and its expiry item are one transaction (updateWebhook): they change together or not at all.
  const updated = await updateWebhook(organizationId, webhookId, { ...body, ...newReceiver, ...renewed, ...reenabled, updatedAt: now() });
  return publicWebhook(updated);
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
  const at = clock.now();
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
export function activeSecrets(secrets: SigningSecret[], at = clock.now()): string[] {
  return secrets
    .filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > at)
    .slice(0, 2)
    .map((s) => s.secret);
}

/**
 * The secret that signs with no end, opened: the one a create answers, and a create that finds the subscription
 * answers again. Undefined when its stored secrets do not open for it.
 */
export const currentSecret = async (organizationId: string, webhook: WebhookRecord): Promise<string | undefined> =>
  activeSecrets(await signingSecretsOf(organizationId, webhook))[0];

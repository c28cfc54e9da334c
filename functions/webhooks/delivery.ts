import { activeSecrets, isLive, wants } from './rules';
import { ApiError, NotFoundError } from '#shared/errors';
import { newId, now } from '#shared/ids';
import { clock } from '#shared/clock';
import { claimProbe, completeDelivery, countFailure, disableWebhookAt, getWebhook, markFailing, recordDelivery, updateWebhook, WEBHOOK_NOT_FOUND } from './store';
import { TEST_EVENT_MESSAGE, TEST_EVENT_TYPE, type WebhookDelivery, type WebhookTestEvent } from './schema';
import { EVENT_RETENTION_DAYS } from '../events/schema';
import { getEvent } from '../events/store';
import { postSigned, type PostOutcome } from './post';
import { deliveryQueue, type DeliveryJob, type WebhookEvent } from './queue';
import { webhookSettings } from './settings';
import { WEBHOOK_LIMITS } from './limits';
import { retentionWindow } from '#shared/store/retention';
import { SLOT_LEASE_MS, takeDeliverySlot } from './slots';
import { logger } from '#shared/observability';
import { hasExpired, type WebhookRecord } from './entity';
import { signingSecretsOf } from './signing-secrets';

/** Exponential backoff with ±20 % jitter, from the base (30 s deployed, 1 s locally), never more than an hour between attempts. */
export function retryDelaySeconds(attempt: number, random = Math.random()): number {
  const exponential = Math.min(webhookSettings.maxDelaySeconds, webhookSettings.retryBaseSeconds * 2 ** (attempt - 1));
  return Math.min(webhookSettings.maxDelaySeconds, exponential * (0.8 + 0.4 * random));
}

/**
 * The job's next attempt, or undefined once it would fall more than 24 hours after the first. A retry records an
 * attempt of its own. It waits the backoff, or what the receiver's `Retry-After` asked when that is longer, up to the
 * schedule's longest wait: a receiver cannot hold an event back past the hour, nor past the 24 hours.
 */
function retryOf({ deliveryId: _completedNow, waits: _waitedBefore, ...job }: DeliveryJob, at: number, askedMs: number | null): DeliveryJob | undefined {
  const waitMs = Math.max(retryDelaySeconds(job.attempt) * 1000, Math.min(askedMs ?? 0, webhookSettings.maxDelaySeconds * 1000));
  const notBefore = at + waitMs;
  if (notBefore > Date.parse(job.firstQueuedAt) + webhookSettings.giveUpAfterMs) return undefined;
  return { ...job, attempt: job.attempt + 1, notBefore: new Date(notBefore).toISOString() };
}

/** Standard Webhooks: a receiver answering 410 Gone wants no more webhooks, so its subscription is disabled at once. */
const GONE = 410;

const isSuccess = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * What an attempt is when the subscription has no secret to sign with (its stored one is not its own: copied from
 * another item): nothing is sent, and the attempt fails as a delivery its receiver refused would.
 */
const UNSIGNED: PostOutcome = { statusCode: null, error: 'not sent: the subscription’s signing secret could not be read; rotate it', durationMs: 0, retryAfterMs: null };

/** One signed POST of an event and the record of it, as the deliveries list shows it (no next attempt: the caller's to set). */
async function attempt(url: string, secrets: string[], event: WebhookEvent, number: number, id?: string): Promise<{ outcome: PostOutcome; delivery: WebhookDelivery }> {
  const attemptedAt = new Date(clock.now());
  const outcome = secrets.length ? await postSigned(url, secrets, event.id, JSON.stringify(event)) : UNSIGNED;
  const succeeded = isSuccess(outcome.statusCode);
  return {
    outcome,
    delivery: {
      id: id ?? newId('delivery', attemptedAt),
      eventId: event.id,
      eventType: event.type,
      attempt: number,
      status: succeeded ? 'SUCCEEDED' : 'FAILED',
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: outcome.durationMs,
      attemptedAt: attemptedAt.toISOString(),
      nextAttemptAt: null,
    },
  };
}

/** The record of a job dropped before its attempt: a redelivery's PENDING record, or a retry an attempt promised. */
const notSent = (job: DeliveryJob, id: string, error: string): WebhookDelivery => ({
  id,
  eventId: job.event.id,
  eventType: job.event.type,
  attempt: job.attempt,
  status: 'FAILED',
  statusCode: null,
  error,
  durationMs: 0,
  attemptedAt: new Date(clock.now()).toISOString(),
  nextAttemptAt: null,
});

/**
 * One attempt of one job: POST, record the attempt, then either clear the subscription's failure clock or queue
 * the retry (or dead-letter the job once retries ran out). A subscription failing for 24 hours, or answered 410
 * Gone, is disabled. A subscription deleted, disabled or no longer asking for the type meanwhile gets nothing.
 */
export async function deliver(job: DeliveryJob): Promise<void> {
  // SQS delays 15 minutes at most: a job due later is sent on until its time.
  if (Date.parse(job.notBefore) > clock.now() + 1000) return deliveryQueue().send([job]);
  const webhook = await getWebhook(job.organizationId, job.webhookId);
  // A deleted subscription's deliveries are no longer listed (its log answers 404): nothing to record.
  if (!webhook) return;
  if (!wants(webhook, job.event.type)) {
    // What the log promised (a redelivery's PENDING record, the previous attempt's nextAttemptAt) is answered: not
    // sent, and why, rather than left promising an attempt that will not come.
    const ended = !webhook.isEnabled ? 'was disabled' : hasExpired(webhook) ? `expired (at ${webhook.expiresAt})` : `stopped asking for ${job.event.type}`;
    const why = `not sent: the subscription ${ended} before the ${job.deliveryId ? 'attempt' : 'retry'} was due`;
    if (job.deliveryId) await completeDelivery(job.organizationId, job.webhookId, notSent(job, job.deliveryId, why));
    else if (job.attempt > 1) await recordDelivery(job.organizationId, job.webhookId, notSent(job, newId('delivery', new Date(clock.now())), why));
    return;
  }

  // A receiver failing attempt after attempt is paused on its own: its jobs wait on the queue, not in the pool.
  const paused = await pausedUntil(job, webhook);
  if (paused !== undefined) return putBack(job, paused);
  // An organization's attempts under way are capped (WEBHOOK_LIMITS.maxInFlightPerOrganization), so a receiver that
  // hangs holds that many of the pool's slots, never all: the rest of its jobs wait on the queue, not in a slot.
  const slot = await takeDeliverySlot(job.organizationId);
  if (!slot) return waitForSlot(job);
  try {
    await attemptAndRecord(job, webhook);
  } finally {
    // A slot not released ends with its lease: the attempt, made and recorded, must not fail (and run again) for it.
    await slot.release().catch((error: unknown) => logger.warn('webhook delivery slot not released; its lease will end', { error, organizationId: job.organizationId }));
  }
}

/**
 * When a paused subscription's job may come back, or undefined to attempt it now: not paused, or its pause has ended
 * and this job takes the probe. The jobs that come back with it wait out the probe's time to answer; the probe's
 * success ends the pause, its failure pauses the subscription again, for longer.
 */
async function pausedUntil(job: DeliveryJob, webhook: WebhookRecord): Promise<number | undefined> {
  if (!webhook.pausedUntil) return undefined;
  const until = Date.parse(webhook.pausedUntil);
  const at = clock.now();
  if (until > at) return until;
  const probeEnds = at + SLOT_LEASE_MS;
  const probes = await claimProbe(job.organizationId, job.webhookId, webhook.pausedUntil, new Date(probeEnds).toISOString());
  return probes ? undefined : probeEnds;
}

/**
 * The longest a job waits for a slot before looking again: a backlog of n jobs waiting on its organization's three
 * slots costs the pool about n / 300 receives a second (each a few milliseconds), not a share of its attempts.
 */
const MAX_SLOT_WAIT_MS = 300_000;

/**
 * A job whose organization has every slot taken goes back on the queue, unattempted and unrecorded: a second, then
 * twice as long each time it comes back to find them taken, up to five minutes, spread by jitter.
 */
function waitForSlot(job: DeliveryJob): Promise<void> {
  const waits = (job.waits ?? 0) + 1;
  const waitMs = Math.min(MAX_SLOT_WAIT_MS, 1000 * 2 ** (waits - 1)) * (0.5 + 0.5 * Math.random());
  return putBack({ ...job, waits }, clock.now() + waitMs);
}

/**
 * A job back on the queue until `at` (and up to a second's jitter, so jobs waiting together come back apart), not an
 * attempt and not recorded. Past the 24 hours retries stop at, it is dead-lettered as a retry would be.
 */
async function putBack(job: DeliveryJob, at: number): Promise<void> {
  const notBefore = at + Math.random() * 1000;
  if (notBefore > Date.parse(job.firstQueuedAt) + webhookSettings.giveUpAfterMs) {
    return deliveryQueue().deadLetter(job, 'retries ran out 24 hours after the first attempt, the job waiting for its receiver or its organization’s share of the deliveries');
  }
  await deliveryQueue().send([{ ...job, notBefore: new Date(notBefore).toISOString() }]);
}

/** The attempt, and what follows from its outcome: the record, the failure clock, the retry or the disabling. */
async function attemptAndRecord(job: DeliveryJob, webhook: WebhookRecord): Promise<void> {
  const { outcome, delivery } = await attempt(webhook.url, activeSecrets(await signingSecretsOf(job.organizationId, webhook)), job.event, job.attempt, job.deliveryId);
  const attemptedAt = Date.parse(delivery.attemptedAt!);
  const failed = delivery.status !== 'SUCCEEDED';
  const gone = outcome.statusCode === GONE;
  // The attempt that disables the subscription is its last: no retry follows it, so it shows no next attempt.
  const disables = gone || (failed && webhook.failingSince !== null && attemptedAt - Date.parse(webhook.failingSince) >= webhookSettings.giveUpAfterMs);
  // Enough failures in a row pause the subscription; its own retry waits out the pause too, as a Retry-After would ask.
  const failuresInARow = webhook.failuresInARow + 1;
  const pauseMs = failed && failuresInARow >= WEBHOOK_LIMITS.pauseAfterFailures ? retryDelaySeconds(failuresInARow - WEBHOOK_LIMITS.pauseAfterFailures + 1) * 1000 : 0;
  const retry = failed && !disables ? retryOf(job, clock.now(), pauseMs ? Math.max(pauseMs, outcome.retryAfterMs ?? 0) : outcome.retryAfterMs) : undefined;
  // A redelivery's first attempt completes the PENDING record its request answered.
  await (job.deliveryId ? completeDelivery : recordDelivery)(job.organizationId, job.webhookId, { ...delivery, nextAttemptAt: retry?.notBefore ?? null });

  if (!failed) {
    if (webhook.failingSince || webhook.failuresInARow || webhook.pausedUntil) await updateWebhook(job.organizationId, job.webhookId, { failingSince: null, failuresInARow: 0, pausedUntil: null });
    return;
  }
  const failure = outcome.statusCode === null ? outcome.error! : `HTTP ${outcome.statusCode}`;
  if (disables) {
    // GONE: the receiver asked for no more. FAILING: every delivery since failingSince failed; the attempts say how.
    await disableWebhookAt(job.organizationId, job.webhookId, webhook.url, gone ? 'GONE' : 'FAILING');
    return;
  }
  if (!webhook.failingSince) await markFailing(job.organizationId, job.webhookId, new Date(attemptedAt).toISOString());
  await countFailure(job.organizationId, job.webhookId, pauseMs ? new Date(clock.now() + pauseMs).toISOString() : null);
  if (retry) await deliveryQueue().send([retry]);
  else await deliveryQueue().deadLetter(job, `retries ran out 24 hours after the first attempt (last: ${failure})`);
}

/**
 * `POST /v1/webhooks/{webhookId}/test`: a `webhook.test` event POSTed now, signed as deliveries are, through the
 * same destination checks. Its attempt is recorded in the deliveries (never retried, never counted against the
 * subscription's failure clock) and answered whatever the receiver did. The event itself is not stored.
 */
export async function sendTestEvent(organizationId: string, webhookId: string): Promise<WebhookDelivery> {
  const webhook = await getWebhook(organizationId, webhookId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  // Its shape is the document's WebhookTestEvent, which receivers validate it with.
  const event: WebhookTestEvent = { id: newId('evt'), type: TEST_EVENT_TYPE, occurredAt: now(), organizationId, data: { webhookId, message: TEST_EVENT_MESSAGE } };
  const { delivery } = await attempt(webhook.url, activeSecrets(await signingSecretsOf(organizationId, webhook)), event, 1);
  await recordDelivery(organizationId, webhookId, delivery);
  return delivery;
}

/**
 * `POST /v1/events/{eventId}/redeliver`: queues the stored event again for one subscription, on the queue and
 * worker every delivery takes, and answers its PENDING record. The event keeps its id, so the receiver gets the
 * same `webhook-id` (with a new timestamp and signature). An event id older than the 30 days events are kept
 * answers 410 EVENT_EXPIRED, whether or not the TTL has removed it yet; a subscription that is disabled or does
 * not ask for the event's type answers 409, as the worker would drop the job.
 */
export async function redeliverEvent(organizationId: string, eventId: string, webhookId: string): Promise<WebhookDelivery> {
  const [oldest] = retentionWindow('evt', EVENT_RETENTION_DAYS);
  if (eventId < oldest) throw new ApiError(410, `Event ${eventId} is older than ${EVENT_RETENTION_DAYS} days; events are kept and redelivered for ${EVENT_RETENTION_DAYS} days`, 'EVENT_EXPIRED');
  const [event, webhook] = await Promise.all([getEvent(organizationId, eventId), getWebhook(organizationId, webhookId)]);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  if (!isLive(webhook)) throw new ApiError(409, 'The webhook is disabled; set isEnabled to true before redelivering to it', 'WEBHOOK_DISABLED');
  if (!wants(webhook, event.type)) throw new ApiError(409, `The webhook does not subscribe to ${event.type}; add it to its events first`, 'NOT_SUBSCRIBED');
  // Due now by the clock deliveries are scheduled by: its retries stop 24 hours after this.
  const at = new Date(clock.now()).toISOString();
  const delivery: WebhookDelivery = { id: newId('delivery'), eventId, eventType: event.type, attempt: 1, status: 'PENDING', statusCode: null, error: null, durationMs: null, attemptedAt: null, nextAttemptAt: at };
  await recordDelivery(organizationId, webhookId, delivery);
  await deliveryQueue()
    .send([{ organizationId, webhookId, event, attempt: 1, firstQueuedAt: at, notBefore: at, deliveryId: delivery.id }])
    .catch(async (error: unknown) => {
      // Never attempted, so the record must not stay PENDING: it says so, and the caller, answered 5xx, redelivers again.
      await completeDelivery(organizationId, webhookId, { ...delivery, status: 'FAILED', error: 'not sent: the delivery queue did not take the job; redeliver again', nextAttemptAt: null });
      throw error;
    });
  return delivery;
}

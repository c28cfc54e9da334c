import { activeSecrets, wants } from './rules';
import { newId } from '../../shared/ids';
import { getWebhook, markFailing, recordDelivery, updateWebhook } from './store';
import { postSigned } from '../../shared/webhooks/post';
import { deliveryQueue, type DeliveryJob } from '../../shared/webhooks/queue';
import { webhookSettings } from '../../shared/webhooks/settings';

/** Exponential backoff with ±20 % jitter, from the base (30 s deployed, 1 s locally), never more than an hour between attempts. */
export function retryDelaySeconds(attempt: number, random = Math.random()): number {
  const exponential = Math.min(webhookSettings.maxDelaySeconds, webhookSettings.retryBaseSeconds * 2 ** (attempt - 1));
  return Math.min(webhookSettings.maxDelaySeconds, exponential * (0.8 + 0.4 * random));
}

/** The job's next attempt, or undefined once it would fall more than 24 hours after the first. */
function retryOf(job: DeliveryJob, at: number): DeliveryJob | undefined {
  const notBefore = at + retryDelaySeconds(job.attempt) * 1000;
  if (notBefore > Date.parse(job.firstQueuedAt) + webhookSettings.giveUpAfterMs) return undefined;
  return { ...job, attempt: job.attempt + 1, notBefore: new Date(notBefore).toISOString() };
}

const isSuccess = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * One attempt of one job: POST, record the attempt, then either clear the subscription's failure clock or queue
 * the retry (or dead-letter the job once retries ran out). A subscription failing for 24 hours is disabled.
 * A subscription deleted, disabled or no longer asking for the type meanwhile gets nothing.
 */
export async function deliver(job: DeliveryJob): Promise<void> {
  // SQS delays 15 minutes at most: a job due later is sent on until its time.
  if (Date.parse(job.notBefore) > Date.now() + 1000) return deliveryQueue().send([job]);
  const webhook = await getWebhook(job.organizationId, job.webhookId);
  if (!webhook || !wants(webhook, job.event.type)) return;

  const outcome = await postSigned(webhook.url, activeSecrets(webhook), job.event.id, JSON.stringify(job.event));
  const attemptedAt = Date.now() - outcome.durationMs;
  const succeeded = isSuccess(outcome.statusCode);
  const retry = succeeded ? undefined : retryOf(job, Date.now());
  await recordDelivery(job.organizationId, job.webhookId, {
    id: newId('delivery', new Date(attemptedAt)),
    eventId: job.event.id,
    eventType: job.event.type,
    attempt: job.attempt,
    status: succeeded ? 'SUCCEEDED' : 'FAILED',
    statusCode: outcome.statusCode,
    error: outcome.error,
    durationMs: outcome.durationMs,
    attemptedAt: new Date(attemptedAt).toISOString(),
    nextAttemptAt: retry?.notBefore ?? null,
  });

  if (succeeded) {
    if (webhook.failingSince) await updateWebhook(job.organizationId, job.webhookId, { failingSince: null });
    return;
  }
  const failure = outcome.statusCode === null ? outcome.error! : `HTTP ${outcome.statusCode}`;
  if (!webhook.failingSince) await markFailing(job.organizationId, job.webhookId, new Date(attemptedAt).toISOString());
  else if (attemptedAt - Date.parse(webhook.failingSince) >= webhookSettings.giveUpAfterMs) {
    const disabledReason = `Disabled at ${new Date().toISOString()}: every delivery since ${webhook.failingSince} failed (last: ${failure}). Fix the receiver, then set isEnabled to true.`;
    await updateWebhook(job.organizationId, job.webhookId, { isEnabled: false, disabledReason, updatedAt: new Date().toISOString() });
  }
  if (retry) await deliveryQueue().send([retry]);
  else await deliveryQueue().deadLetter(job, `retries ran out 24 hours after the first attempt (last: ${failure})`);
}

/**
 * How webhooks behave in this process, read once. Deployed, URLs must be https and public, and retries start
 * at 30 s; `npm start` and the tests allow http and loopback URLs (WEBHOOK_URLS_ALLOW_PRIVATE=true) and start
 * retries at 1 s (WEBHOOK_RETRY_BASE_SECONDS=1), so a developer can watch deliveries arrive.
 */
export const webhookSettings = {
  allowPrivateUrls: process.env.WEBHOOK_URLS_ALLOW_PRIVATE === 'true',
  retryBaseSeconds: Number(process.env.WEBHOOK_RETRY_BASE_SECONDS ?? 30),
  /** A receiver answering slower than this counts as failed. */
  timeoutMs: 10_000,
  /** Retries stop this long after the first attempt; a subscription failing this long is disabled. */
  giveUpAfterMs: 24 * 3_600_000,
  /** The longest wait between two attempts. */
  maxDelaySeconds: 3_600,
};

if (!(webhookSettings.retryBaseSeconds > 0)) throw new Error('WEBHOOK_RETRY_BASE_SECONDS must be a positive number');

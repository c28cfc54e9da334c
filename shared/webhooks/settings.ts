import { WEBHOOK_LIMITS } from './limits';

/**
 * How webhooks behave in this process, read once. Deployed, URLs must be https and public, and retries start
 * at 30 s; `npm start` and the tests allow http and loopback URLs (WEBHOOK_URLS_ALLOW_PRIVATE=true) and start
 * retries at 1 s (WEBHOOK_RETRY_BASE_SECONDS=1), so a developer can watch deliveries arrive.
 */
export const webhookSettings: { allowPrivateUrls: boolean; retryBaseSeconds: number; timeoutMs: number; giveUpAfterMs: number; maxDelaySeconds: number } = {
  allowPrivateUrls: process.env.WEBHOOK_URLS_ALLOW_PRIVATE === 'true',
  retryBaseSeconds: Number(process.env.WEBHOOK_RETRY_BASE_SECONDS ?? 30),
  ...WEBHOOK_LIMITS,
};

if (!(webhookSettings.retryBaseSeconds > 0)) throw new Error('WEBHOOK_RETRY_BASE_SECONDS must be a positive number');

import { privateUrls } from '#shared/private-urls';
import { WEBHOOK_LIMITS } from './limits';

/**
 * How webhooks behave in this process, read once. Deployed, URLs must be https and public, and retries start
 * at 30 s; `npm start` and the tests allow http and loopback URLs (WEBHOOK_URLS_ALLOW_PRIVATE=true) and start
 * retries at 1 s (WEBHOOK_RETRY_BASE_SECONDS=1), so a developer can watch deliveries arrive.
 */
export const webhookSettings: { allowPrivateUrls: boolean; retryBaseSeconds: number; timeoutMs: number; giveUpAfterMs: number; maxDelaySeconds: number } = {
  // The one setting inbound endpoints share (shared/private-urls.ts): set here, it is set for both.
  get allowPrivateUrls() {
    return privateUrls.allowed;
  },
  set allowPrivateUrls(allowed: boolean) {
    privateUrls.allowed = allowed;
  },
  retryBaseSeconds: Number(process.env.WEBHOOK_RETRY_BASE_SECONDS ?? 30),
  ...WEBHOOK_LIMITS,
};

if (!(webhookSettings.retryBaseSeconds > 0)) throw new Error('WEBHOOK_RETRY_BASE_SECONDS must be a positive number');

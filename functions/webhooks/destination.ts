import { refusalAfterLookup, refusalBeforeLookup, type OutboundReach, type OutboundRefusal } from '#shared/net/outbound';
import { webhookSettings } from './settings';

/** Webhooks' use of the outbound guard: every URL local under `npm start` and the tests, none deployed (read per request, as a test switches it). */
export const webhookReach = (): OutboundReach => ({ local: webhookSettings.allowPrivateUrls });

/** Each refusal as a webhook's (or an automation step's) `url` field is told it. */
const REFUSALS: Record<OutboundRefusal, string> = {
  NOT_HTTPS: 'url must be an https URL',
  PRIVATE_HOST: 'url must not point at a private, loopback or link-local address',
  RESOLVES_PRIVATE: 'url must not resolve to a private, loopback or link-local address',
};

/** Why a URL may not receive webhooks, or undefined when it may. */
export function refusalOf(url: URL): string | undefined {
  const refusal = refusalBeforeLookup(url, webhookReach());
  return refusal && REFUSALS[refusal];
}

/**
 * Why a URL's host may not receive webhooks after resolving it, or undefined. A name that does not resolve
 * now is accepted (DNS can fail briefly); every delivery resolves it again.
 */
export async function resolvedRefusalOf(url: URL): Promise<string | undefined> {
  const refusal = await refusalAfterLookup(url, webhookReach());
  return refusal && REFUSALS[refusal];
}

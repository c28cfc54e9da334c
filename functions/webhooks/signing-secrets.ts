import { opened, seal, SecretNotOpened } from '#shared/envelope-encryption';
import type { SigningSecret, WebhookRecord } from './entity';

/** The subscription's secrets are sealed for its organization, its id and their attribute. */
const sealedFor = (organizationId: string, webhookId: string) => ({ organizationId, itemId: webhookId, attribute: 'secrets' });

/** The secrets as the item stores them: sealed, the list whole (each secret with when it stops signing). */
export const sealedSecrets = (organizationId: string, webhookId: string, secrets: SigningSecret[]) => seal(JSON.stringify(secrets), sealedFor(organizationId, webhookId));

/**
 * The subscription's secrets, opened: a list written before sealing is read as it is; a sealed value that is not this
 * subscription's (copied from another item or organization) is no secret at all, so nothing signs with it.
 */
export async function signingSecretsOf(organizationId: string, webhook: Pick<WebhookRecord, 'id' | 'secrets'>): Promise<SigningSecret[]> {
  if (Array.isArray(webhook.secrets)) return webhook.secrets;
  try {
    return JSON.parse(await opened(webhook.secrets, sealedFor(organizationId, webhook.id))) as SigningSecret[];
  } catch (error) {
    if (error instanceof SecretNotOpened) return [];
    throw error;
  }
}

import { isSealed, opened, seal, SecretNotOpened, type Sealed } from '#shared/envelope-encryption';

/** The secret an automation's webhook steps sign with, as its items hold it: sealed, or plain in one written before sealing. */
export type StoredSigningSecret = string | Sealed;

/**
 * Sealed for its organization, its automation and its attribute: the automation's item and each of its versions hold
 * the same sealed value, copied as it is to the next version, never opened to be written again.
 */
const sealedFor = (organizationId: string, automationId: string) => ({ organizationId, itemId: automationId, attribute: 'signingSecret' });

export const sealedSigningSecret = (organizationId: string, automationId: string, secret: string): Promise<Sealed> => seal(secret, sealedFor(organizationId, automationId));

/** A secret as stored from now on: a plain one (written before sealing) is sealed, a sealed one kept as it is. */
export const sealedAsStored = async (organizationId: string, automationId: string, stored: StoredSigningSecret): Promise<Sealed> =>
  isSealed(stored) ? stored : sealedSigningSecret(organizationId, automationId, stored);

/**
 * The secret opened, to sign a webhook step's post: a plain one is read as it is; a sealed value that is not this
 * automation's (copied from another item or organization) is no secret at all, so nothing signs with it.
 */
export async function signingSecretOf(organizationId: string, automationId: string, stored: StoredSigningSecret | undefined | null): Promise<string | undefined> {
  if (stored === undefined || stored === null) return undefined;
  try {
    return await opened(stored, sealedFor(organizationId, automationId));
  } catch (error) {
    if (error instanceof SecretNotOpened) return undefined;
    throw error;
  }
}

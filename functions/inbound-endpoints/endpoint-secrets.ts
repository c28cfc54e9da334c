import { opened, seal, SecretNotOpened, type Sealed } from '#shared/envelope-encryption';
import type { InboundEndpointRecord } from './entity';

/** The endpoint's secrets as the item stores them: its own signing secret, and the platform's key Retell signs with. */
export type EndpointSecret = 'secret' | 'platformSecret';

/** Each secret is sealed for the endpoint's organization, its id and the attribute holding it. */
export const sealedEndpointSecret = (organizationId: string, endpointId: string, attribute: EndpointSecret, value: string): Promise<Sealed> =>
  seal(value, { organizationId, itemId: endpointId, attribute });

/**
 * One of the endpoint's secrets, opened to check a post with: a value written before sealing is read as it is; none
 * stored, or a sealed value that is not this endpoint's (copied from another item or organization), is undefined,
 * which matches no signature.
 */
export async function endpointSecret(endpoint: Pick<InboundEndpointRecord, 'organizationId' | 'id' | EndpointSecret>, attribute: EndpointSecret): Promise<string | undefined> {
  const stored = endpoint[attribute];
  if (stored === undefined) return undefined;
  try {
    return await opened(stored, { organizationId: endpoint.organizationId, itemId: endpoint.id, attribute });
  } catch (error) {
    if (error instanceof SecretNotOpened) return undefined;
    throw error;
  }
}

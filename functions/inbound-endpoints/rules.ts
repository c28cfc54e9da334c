import * as v from 'valibot';
import { hashToken } from '#shared/auth/tokens';
import { NotFoundError, ValidationError } from '#shared/errors';
import { newId, now } from '#shared/ids';
import { newSigningSecret } from '#shared/signed-posts';
import { newToken } from './auth';
import type { InboundEndpointRecord } from './entity';
import { createInboundEndpoint, getInboundEndpoint, INBOUND_ENDPOINT_NOT_FOUND, InboundEndpointMoved, replaceInboundCredentials, updateInboundEndpoint } from './store';
import { InboundEndpoint, isCallPlatform, type CreateInboundEndpointBody, type InboundEndpointChanges, type InboundFormat } from './schema';
import { sealedEndpointSecret } from './endpoint-secrets';

/** The endpoint as the API shows it: the fields of its schema, never the token's hash nor the secret. */
export const publicEndpoint = (endpoint: InboundEndpointRecord): InboundEndpoint => v.parse(InboundEndpoint, endpoint);

/** A redirect URL as the URL parser writes it (what a browser would be sent to), so a read shows exactly that. */
const normalizedUrl = (url: string | null | undefined) => (url ? new URL(url).href : url);

/** The settings as stored: redirect URLs written as the URL parser writes them. */
function settingsOf<T extends { redirectUrl?: string | null; errorRedirectUrl?: string | null }>(settings: T): T {
  return {
    ...settings,
    ...(settings.redirectUrl !== undefined ? { redirectUrl: normalizedUrl(settings.redirectUrl) } : {}),
    ...(settings.errorRedirectUrl !== undefined ? { errorRedirectUrl: normalizedUrl(settings.errorRedirectUrl) } : {}),
  };
}

const urlOf = (baseUrl: string, id: string, token: string) => `${baseUrl}/v1/inbound/${id}?token=${token}`;

/** The settings one rule spans: how posts are read, and the key Retell signs with. */
interface FormatSettings {
  source: string;
  format: InboundFormat;
  platformSecret?: string | Uint8Array | undefined;
}

/**
 * Whether the settings hold together: a voice platform's format only on an endpoint of source CALL (its posts are
 * calls), Retell's with the API key it signs with, and that key only with Retell's format (Vapi sends the endpoint's
 * own secret). Refused as a 400 naming the field the request sent: `source` when it changed alone, else `format`.
 */
function refuseUnlessCoherent(settings: FormatSettings, sent: Partial<Record<keyof FormatSettings, unknown>>): void {
  const refuse = (path: string, message: string) => {
    throw new ValidationError([{ path, message }]);
  };
  if (isCallPlatform(settings.format) && settings.source !== 'CALL') {
    refuse(sent.source !== undefined && sent.format === undefined ? 'source' : 'format', `format ${settings.format} takes the platform’s post-call webhook, so it is only for endpoints of source CALL`);
  }
  if (settings.format === 'retell' && !settings.platformSecret) refuse('platformSecret', 'platformSecret is required with format retell: the Retell API key (with the webhook badge) that signs its webhooks');
  if (settings.platformSecret && settings.format !== 'retell') refuse('platformSecret', 'platformSecret is only for format retell (Vapi sends the endpoint’s own secret)');
}

/** An endpoint, answered once with its URL (holding the token, stored only hashed) and its signing secret, stored sealed with Retell's key. */
export async function createEndpoint(organizationId: string, body: CreateInboundEndpointBody, baseUrl: string) {
  refuseUnlessCoherent(body, body);
  const token = newToken();
  const at = now();
  const id = newId('inbound');
  const secret = newSigningSecret();
  const { platformSecret, ...settings } = settingsOf(body);
  const sealed = {
    secret: await sealedEndpointSecret(organizationId, id, 'secret', secret),
    ...(platformSecret !== undefined ? { platformSecret: await sealedEndpointSecret(organizationId, id, 'platformSecret', platformSecret) } : {}),
  };
  const endpoint: InboundEndpointRecord = { id, ...settings, createdAt: at, updatedAt: at, organizationId, tokenHash: hashToken(token), ...sealed };
  await createInboundEndpoint(endpoint);
  return { ...publicEndpoint(endpoint), url: urlOf(baseUrl, endpoint.id, token), secret };
}

/** One endpoint as the list shows it: never the token's hash nor the secret. */
export async function readEndpoint(organizationId: string, endpointId: string): Promise<InboundEndpoint> {
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
  return publicEndpoint(endpoint);
}

/** How many times a change of source or format is read and written again when another such change came between. */
const MOVED_ATTEMPTS = 3;

/**
 * Its settings changed in place: the same id, so the same URL, token and secret. A change of source, format or
 * platformSecret is checked on the endpoint as it will be (read first), and written only while source and format are
 * still as read; a format other than `retell` drops Retell's key.
 */
export async function changeEndpoint(organizationId: string, endpointId: string, changes: InboundEndpointChanges): Promise<InboundEndpoint> {
  const { platformSecret: sentKey, ...unsealed } = settingsOf(changes);
  if (changes.source === undefined && changes.format === undefined && sentKey === undefined) {
    return publicEndpoint(await updateInboundEndpoint(organizationId, endpointId, unsealed));
  }
  // Retell's key is written sealed; an endpoint written before sealing has its key sealed by the next that sends one.
  const settings = { ...unsealed, ...(sentKey !== undefined ? { platformSecret: await sealedEndpointSecret(organizationId, endpointId, 'platformSecret', sentKey) } : {}) };
  for (let attempt = 1; ; attempt++) {
    const stored = await getInboundEndpoint(organizationId, endpointId);
    if (!stored) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
    const format = changes.format ?? stored.format;
    const platformSecret = changes.platformSecret ?? (format === 'retell' ? stored.platformSecret : undefined);
    refuseUnlessCoherent({ source: changes.source ?? stored.source, format, platformSecret }, changes);
    const readAs = { source: stored.source, format: stored.format, removePlatformSecret: format !== 'retell' && stored.platformSecret !== undefined };
    try {
      return publicEndpoint(await updateInboundEndpoint(organizationId, endpointId, settings, readAs));
    } catch (error) {
      if (!(error instanceof InboundEndpointMoved) || attempt === MOVED_ATTEMPTS) throw error;
    }
  }
}

/** A new token and secret; the old ones stop working at once. */
export async function rotateEndpoint(organizationId: string, endpointId: string, baseUrl: string) {
  const endpoint = await getInboundEndpoint(organizationId, endpointId);
  if (!endpoint) throw new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);
  const token = newToken();
  const secret = newSigningSecret();
  const updatedAt = await replaceInboundCredentials(organizationId, endpointId, { tokenHash: hashToken(token), secret: await sealedEndpointSecret(organizationId, endpointId, 'secret', secret) });
  return { ...publicEndpoint({ ...endpoint, updatedAt }), url: urlOf(baseUrl, endpointId, token), secret };
}

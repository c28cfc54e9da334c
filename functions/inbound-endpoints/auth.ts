import { randomBytes } from 'node:crypto';
import { hashToken, sameSecret } from '#shared/auth/tokens';
import { ApiError } from '#shared/errors';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses';
import { signedHeaders } from '#shared/signed-posts';
import { retellSignatureValid, vapiSecretValid } from './platform-signatures';
import type { InboundEndpointRecord } from './entity';
import { endpointSecret } from './endpoint-secrets';

/** A Standard Webhooks signature older or newer than this is refused (replays). */
const TOLERANCE_SECONDS = 5 * 60;

const TOKEN_PREFIX = 'inb_';
export const newToken = () => TOKEN_PREFIX + randomBytes(24).toString('base64url');

/**
 * The gateway's own 401 body, word for word (GATEWAY_RESPONSES.UNAUTHORIZED): an unknown endpoint is refused by
 * the gateway's inbound authorizer before this runs, and a wrong token must answer exactly alike, so that ids
 * cannot be probed.
 */
export const unauthorized = () => Object.assign(new ApiError(401, GATEWAY_RESPONSES.UNAUTHORIZED.message), { headers: GATEWAY_RESPONSES.UNAUTHORIZED.headers });

export const tokenMatches = (endpoint: InboundEndpointRecord, token: string) => sameSecret(hashToken(token), endpoint.tokenHash);

/**
 * The platform's own proof for a voice platform's format (Retell's signature with its API key, Vapi's credential
 * holding the endpoint's secret), and nothing else: a token in the URL is neither needed nor enough. Otherwise the
 * `token` query parameter, or Standard Webhooks headers signed with the endpoint's secret within 5 minutes. A secret
 * is opened only when the post is checked with it (a token's post opens none); one that does not open for this
 * endpoint matches nothing.
 */
export async function authenticate(endpoint: InboundEndpointRecord, token: string | undefined, headers: Record<string, string>, body: string): Promise<void> {
  if (endpoint.format === 'retell') {
    if (!retellSignatureValid(await endpointSecret(endpoint, 'platformSecret'), headers['x-retell-signature'], body)) throw unauthorized();
    return;
  }
  if (endpoint.format === 'vapi') {
    const secret = await endpointSecret(endpoint, 'secret');
    if (secret === undefined || !vapiSecretValid(secret, headers)) throw unauthorized();
    return;
  }
  if (token !== undefined) {
    if (!tokenMatches(endpoint, token)) throw unauthorized();
    return;
  }
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) throw unauthorized();
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) throw unauthorized();
  const secret = await endpointSecret(endpoint, 'secret');
  if (secret === undefined) throw unauthorized();
  const expected = signedHeaders([secret], { id, timestamp: Number(timestamp), body })['webhook-signature']!;
  if (!signatures.split(' ').some((signature) => sameSecret(signature, expected))) throw unauthorized();
}

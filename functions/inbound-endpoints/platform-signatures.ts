import { createHmac } from 'node:crypto';
import { sameSecret } from '#shared/auth/tokens';

/**
 * How a voice platform's post-call webhook is proved to come from the platform (./auth.ts). Apart from the inquiry
 * each records (./call-platforms.ts), which only the post's own function reads.
 */

/** What Retell's SDK allows between its signature's timestamp and our clock, either way. */
export const RETELL_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Retell's `x-retell-signature: v=<unix ms>,d=<hex>`: HMAC-SHA256 of the raw body followed by the timestamp's
 * digits, keyed with the Retell API key that has the webhook badge (what its SDK's `Retell.verify` computes).
 */
export function retellSignatureValid(apiKey: string | undefined, header: string | undefined, body: string, now = Date.now()): boolean {
  const match = /^v=(\d{1,16}),d=([0-9a-f]{64})$/.exec(header ?? '');
  if (!apiKey || !match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(now - timestamp) > RETELL_TOLERANCE_MS) return false;
  return sameSecret(match[2]!, createHmac('sha256', apiKey).update(body + timestamp).digest('hex'));
}

/**
 * Vapi's server credential holding the endpoint's secret: a Bearer Token credential as Vapi sends it by default,
 * `Authorization: Bearer <token>`, or `x-vapi-secret: <secret>` (the inline `server.secret` Vapi keeps for older
 * assistants, or a credential whose header is named so, without the prefix). A post sending `x-vapi-secret` is judged
 * by it alone, so one request proves one credential. Compared in constant time.
 */
export function vapiSecretValid(secret: string, headers: Record<string, string | undefined>): boolean {
  // Auth scheme names are case-insensitive (RFC 7235); one or more spaces follow them.
  const bearer = /^Bearer +(\S+)$/i.exec(headers.authorization?.trim() ?? '')?.[1];
  const given = headers['x-vapi-secret'] ?? bearer;
  return given !== undefined && sameSecret(given, secret);
}

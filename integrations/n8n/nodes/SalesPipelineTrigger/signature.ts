import { createHmac, timingSafeEqual } from 'crypto';

/** How far a delivery's timestamp may be from now, either way, in seconds: older is a replay, newer a wrong clock. */
export const TOLERANCE_SECONDS = 5 * 60;

/** Why a delivery is refused, or undefined when it is the API's. */
export type Refusal = 'missing headers' | 'stale timestamp' | 'wrong signature' | undefined;

/**
 * Checks a delivery as Standard Webhooks signs it: `webhook-signature` holds `v1,<base64 HMAC-SHA256>` of
 * `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the base64 part of the `whsec_` secret, one per active
 * secret (two while a rotated-out one still signs); one match, compared in constant time, is enough.
 */
export function refusalOf(secret: string, headers: { id?: string; timestamp?: string; signature?: string }, rawBody: Buffer, nowSeconds: number): Refusal {
	const { id, timestamp, signature } = headers;
	if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return 'missing headers';
	if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return 'stale timestamp';
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
	const matches = signature.split(' ').some((part) => {
		const [version, value] = part.split(',');
		if (version !== 'v1' || !value) return false;
		const given = Buffer.from(value, 'base64');
		return given.length === expected.length && timingSafeEqual(given, expected);
	});
	return matches ? undefined : 'wrong signature';
}

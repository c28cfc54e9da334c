import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes, the Standard Webhooks secret format. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** One `v1,<signature>`: base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed with the secret's bytes. */
function sign(secret: string, content: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
}

/** The Standard Webhooks headers for one delivery: one space-separated signature per active secret. */
export function signedHeaders(secrets: string[], { id, timestamp, body }: { id: string; timestamp: number; body: string }): Record<string, string> {
  const content = `${id}.${timestamp}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, content)).join(' '),
  };
}

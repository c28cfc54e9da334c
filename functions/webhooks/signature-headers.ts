import { prose } from '#shared/prose';
/** The headers of every message sent (Standard Webhooks), with which the receiver verifies it (standardwebhooks.com). */
export const SIGNATURE_HEADERS: readonly Record<string, unknown>[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id, the same on every attempt of one message: deduplicate on it. It is the first part of what is signed.',
    schema: { type: 'string', minLength: 1 },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in unix seconds. Refuse a message whose timestamp is more than 5 minutes from your clock (a replay).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: prose`
      Space-separated signatures \`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">\`, one per
      active secret (two while a rotated-out secret still signs), each keyed with the base64-decoded part of a
      \`whsec_\` secret after the prefix. Accept the message when one matches, compared in constant time; any Standard
      Webhooks library does this.
    `,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
];

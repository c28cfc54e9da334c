import * as v from 'valibot';
import { PrefixedId, Timestamp } from '#shared/schema';
import { NOTICE_KINDS } from './entity';

/** What each kind of notice is, as the document and the console say it. */
export const NOTICE_KIND_DESCRIPTIONS: Record<(typeof NOTICE_KINDS)[number], string> = {
  MISSED_CALL: 'a call the receptionist marked missed (`inquiry.created`, source CALL, callOutcome MISSED)',
  CUSTOMER_REPLY: 'a text from a customer (`sms.received`)',
  WEBHOOK_FAILING: 'a webhook the service disabled because its deliveries kept failing (`webhook.disabled`); ADMINs only',
};

/** A push service's URL: where the browser's push service takes this subscription's messages. */
export const MAX_ENDPOINT_LENGTH = 2048;
/** A member's subscriptions: a browser per device they use, with room to spare. */
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 10;

/** Base64url text of exactly `bytes` bytes (padding allowed, as some browsers write it); `first`, the first byte's value. */
const base64UrlBytes = (name: string, bytes: number, what: string, first?: number) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.regex(/^[A-Za-z0-9_-]+={0,2}$/, `${name} must be base64url`),
    v.check((text) => {
      const decoded = Buffer.from(text, 'base64url');
      return decoded.length === bytes && (first === undefined || decoded[0] === first);
    }, `${name} must be ${what}`),
  );

const NotifyList = v.pipe(
  v.array(v.picklist(NOTICE_KINDS, `notify must name only ${NOTICE_KINDS.join(', ')}`), 'notify must be an array'),
  v.maxLength(NOTICE_KINDS.length, `notify must name at most ${NOTICE_KINDS.length} kinds`),
  v.check((kinds) => new Set(kinds).size === kinds.length, 'notify must name each kind once'),
  v.description(`What this browser is notified of: ${NOTICE_KINDS.map((kind) => `\`${kind}\`, ${NOTICE_KIND_DESCRIPTIONS[kind]}`).join('; ')}. By default, every kind the member’s role receives.`),
);

/** The browser's PushSubscription as its `toJSON()` writes it, and what the member wants to hear of on it. */
export const CreatePushSubscriptionBody = v.strictObject({
  endpoint: v.pipe(
    v.string('endpoint must be a string'),
    v.maxLength(MAX_ENDPOINT_LENGTH, `endpoint must be at most ${MAX_ENDPOINT_LENGTH} characters`),
    v.check((text) => URL.canParse(text), 'endpoint must be a URL'),
    v.description('The push service’s URL for this browser (PushSubscription.endpoint): https, on a public host.'),
  ),
  expirationTime: v.optional(v.pipe(v.nullable(v.number('expirationTime must be a number or null')), v.description('As the browser gives it; not kept (a push service that ends a subscription answers 404 or 410, and it is deleted).'))),
  keys: v.strictObject(
    {
      p256dh: v.pipe(base64UrlBytes('keys.p256dh', 65, 'an uncompressed P-256 public key (65 bytes, starting 0x04)', 4), v.description('The browser’s P-256 public key, base64url.')),
      auth: v.pipe(base64UrlBytes('keys.auth', 16, 'a 16-byte authentication secret'), v.description('The browser’s authentication secret, base64url.')),
    },
    'keys must be an object',
  ),
  notify: v.optional(NotifyList),
});
export type CreatePushSubscriptionBody = v.InferOutput<typeof CreatePushSubscriptionBody>;

export const PushSubscriptionView = v.object({
  id: v.pipe(v.string(), v.description('`push_…`: the same for the same endpoint, so a browser that subscribes again updates its subscription.')),
  endpoint: v.string(),
  notify: v.array(v.picklist(NOTICE_KINDS)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const PushSubscriptionAnswer = v.object({ subscription: PushSubscriptionView });
export const PushSubscriptionList = v.object({ subscriptions: v.array(PushSubscriptionView) });

export const PushOptions = v.object({
  applicationServerKey: v.pipe(v.string(), v.description('The organization’s VAPID public key (base64url, 65 bytes): PushManager.subscribe’s `applicationServerKey`.')),
});

export const PushSubscriptionIdPath = v.object({ subscriptionId: PrefixedId('push', 'subscriptionId', { label: 'Push subscription' }) });

export const PushSubscriptionDeleted = v.object({ success: v.literal(true), id: v.string() });

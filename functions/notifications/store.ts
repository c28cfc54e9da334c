import { createECDH, createHash } from 'node:crypto';
import { config } from '#shared/config';
import { clock } from '#shared/clock';
import { open, seal } from '#shared/envelope-encryption';
import { ApiError, NotFoundError, ValidationError } from '#shared/errors';
import type { MemberRole } from '#shared/member-roles';
import { refusalBeforeLookup } from '#shared/net/outbound';
import { privateUrls } from '#shared/private-urls';
import { queryAll } from '#shared/store/query-page';
import { readItem } from '#shared/store/read-item';
import { conditionNotHeld, deleteItem, insertIfAbsent, transact, writeAlone, writeAloneWhereHolds, type TransactWrite } from '#shared/store/transact';
import { fromSubscriptionItem, NOTICE_KINDS, PUSH_KEYS_ENTITY, PUSH_SUBSCRIPTION_ENTITY, pushKeys, type NoticeKind, type StoredSubscription } from './entity';
import { MAX_SUBSCRIPTIONS_PER_MEMBER, type CreatePushSubscriptionBody } from './schema';

/** The organization's VAPID key pair, the private key sealed for its item as a tenant's secret is. */
export const SEALED_FOR = (organizationId: string) => ({ organizationId, itemId: 'PUSHKEYS', attribute: 'privateKey' });

/** Who may hear of what: a failing webhook is for those who manage webhooks. */
export const noticesForRole = (role: MemberRole): NoticeKind[] => NOTICE_KINDS.filter((kind) => kind !== 'WEBHOOK_FAILING' || role === 'ADMIN');

/**
 * The organization's application server key (base64url), made on first ask: a key pair of its own, so a subscription
 * one organization's member made can be sent to by that organization alone. Two first asks at once make one pair.
 */
export async function applicationServerKey(organizationId: string): Promise<string> {
  const stored = await readItem(pushKeys.applicationServerKeys(organizationId));
  if (stored) return String(stored.publicKey);
  const pair = createECDH('prime256v1');
  pair.generateKeys();
  const publicKey = pair.getPublicKey().toString('base64url');
  const privateKey = await seal(fullPrivateKey(pair.getPrivateKey().toString('base64url')), SEALED_FOR(organizationId));
  const item = { ...pushKeys.applicationServerKeys(organizationId), entity: PUSH_KEYS_ENTITY, publicKey, privateKey, createdAt: new Date(clock.now()).toISOString() };
  if (await writeAloneWhereHolds(insertIfAbsent(item, conditionNotHeld))) return publicKey;
  // Another request made the pair first: its key is the one.
  return String((await readItem(pushKeys.applicationServerKeys(organizationId)))!.publicKey);
}

const P256_PRIVATE_KEY_BYTES = 32;

/**
 * A P-256 private key (base64url) as its 32 bytes. Node's ECDH gives the number without its leading zero bytes, so about
 * one key in 256 is shorter, and web-push refuses to sign with it: every push of that organization failed.
 */
export const fullPrivateKey = (privateKey: string): string => {
  const bytes = Buffer.from(privateKey, 'base64url');
  return Buffer.concat([Buffer.alloc(Math.max(0, P256_PRIVATE_KEY_BYTES - bytes.length)), bytes]).toString('base64url');
};

/** The organization's VAPID key pair, opened to sign with; undefined before any member asked to subscribe. */
export async function vapidKeys(organizationId: string): Promise<{ publicKey: string; privateKey: string } | undefined> {
  const stored = await readItem(pushKeys.applicationServerKeys(organizationId));
  if (!stored) return undefined;
  // A pair made before keys were stored whole may be short: it is the same key, written in full.
  return { publicKey: String(stored.publicKey), privateKey: fullPrivateKey(await open(stored.privateKey as Uint8Array<ArrayBuffer>, SEALED_FOR(organizationId))) };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A subscription's id: the endpoint's (26 characters of its SHA-256, in the alphabet of the API's ids), so the same
 * browser subscribing again, as the same member or another, is found by it.
 */
export const subscriptionIdOf = (endpoint: string) => {
  const digest = createHash('sha256').update(endpoint).digest();
  return `push_${Array.from({ length: 26 }, (_, at) => CROCKFORD[digest[at]! % 32]).join('')}`;
};

const limitReached = () => new ApiError(409, `A member has at most ${MAX_SUBSCRIPTIONS_PER_MEMBER} push subscriptions; delete one first`, 'LIMIT_REACHED');

/**
 * Keeps the browser's subscription for the member: a new endpoint is added (`created`), one the member has is updated
 * (its keys and choices), and one another member of the organization had is theirs no more (one browser, one member:
 * whoever subscribed on it last), in one transaction.
 */
export async function subscribe(organizationId: string, member: { id: number; role: MemberRole }, body: CreatePushSubscriptionBody): Promise<{ subscription: StoredSubscription; created: boolean }> {
  const refusal = refusalBeforeLookup(new URL(body.endpoint), { local: privateUrls.allowed });
  if (refusal) throw new ValidationError([{ path: 'endpoint', message: refusal === 'NOT_HTTPS' ? 'endpoint must be an https URL' : 'endpoint must not point at a private, loopback or link-local address' }]);
  const allowed = noticesForRole(member.role);
  const refused = body.notify?.find((kind) => !allowed.includes(kind));
  if (refused) throw new ValidationError([{ path: 'notify', message: `notify may not name ${refused}: it is for ADMINs, who manage webhooks` }]);
  const id = subscriptionIdOf(body.endpoint);
  const everyones = (await queryAll(pushKeys.subscriptionsOfOrganization(organizationId), ['sk', 'id', 'memberId', 'createdAt'])).map((item) => ({ id: String(item.id), memberId: Number(item.memberId), createdAt: String(item.createdAt) }));
  const own = everyones.filter((held) => held.memberId === member.id);
  const existing = own.find((held) => held.id === id);
  if (!existing && own.length >= MAX_SUBSCRIPTIONS_PER_MEMBER) throw limitReached();
  const at = new Date(clock.now()).toISOString();
  const subscription: StoredSubscription = { id, memberId: member.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, notify: body.notify ?? allowed, createdAt: existing?.createdAt ?? at, updatedAt: at };
  const put: TransactWrite = { item: { Put: { TableName: config.tableName, Item: { ...pushKeys.subscription(organizationId, member.id, id), entity: PUSH_SUBSCRIPTION_ENTITY, ...subscription } } } };
  const othersHeld = everyones.filter((held) => held.id === id && held.memberId !== member.id).map((held) => deleteItem(pushKeys.subscription(organizationId, held.memberId, id)));
  await (othersHeld.length ? transact([put, ...othersHeld]) : writeAlone(put));
  return { subscription, created: !existing };
}

/** The member's subscriptions, oldest first. */
export async function listSubscriptions(organizationId: string, memberId: number): Promise<StoredSubscription[]> {
  return (await queryAll(pushKeys.subscriptionsOfMember(organizationId, memberId))).map(fromSubscriptionItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Every subscription of the organization's members: what a notice is sent to. */
export async function organizationSubscriptions(organizationId: string): Promise<StoredSubscription[]> {
  return (await queryAll(pushKeys.subscriptionsOfOrganization(organizationId))).map(fromSubscriptionItem);
}

/** Deletes one of the member's subscriptions: another's, or none, answers 404. */
export async function unsubscribe(organizationId: string, memberId: number, subscriptionId: string): Promise<void> {
  await writeAlone(deleteItem(pushKeys.subscription(organizationId, memberId, subscriptionId), () => new NotFoundError('Push subscription not found')));
}

/** Deletes a subscription its push service said is gone (404 or 410); one already deleted is nothing to do. */
export async function forgetSubscription(organizationId: string, subscription: Pick<StoredSubscription, 'memberId' | 'id'>): Promise<void> {
  await writeAloneWhereHolds(deleteItem(pushKeys.subscription(organizationId, subscription.memberId, subscription.id), conditionNotHeld));
}

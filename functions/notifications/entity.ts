import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '#shared/store/keys';
import { memberPushKeys } from '../organization/member-credential-keys';

const org = organizationPartition;

/**
 * A member's push subscriptions (one per browser or phone that asked), under the member in the organization's partition
 * with what ends with the member (functions/organization/member-credential-keys.ts), and the organization's own application server key pair (VAPID), which every subscription of its members is bound to.
 * `PUSH#` and `PUSHKEYS` never share a prefix a query of subscriptions reads.
 */
export const pushKeys = {
  subscription: memberPushKeys.pushSubscription,
  subscriptionsOfMember: memberPushKeys.pushSubscriptionsOfMember,
  /** Every member's: what an event's notice is sent to, read in one Query. */
  subscriptionsOfOrganization: (o: string): Collection => ({ pk: org(o), skPrefix: 'PUSH#' }),
  applicationServerKeys: (o: string): Key => ({ pk: org(o), sk: 'PUSHKEYS' }),
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const pushKeySamples: KeySamples<typeof pushKeys> = {
  subscription: () => pushKeys.subscription(O, 1, 'push_0000000000ABCDEFGHJKMNPQRS'),
  subscriptionsOfMember: () => pushKeys.subscriptionsOfMember(O, 1),
  subscriptionsOfOrganization: () => pushKeys.subscriptionsOfOrganization(O),
  applicationServerKeys: () => pushKeys.applicationServerKeys(O),
};

export const PUSH_SUBSCRIPTION_ENTITY = 'PUSH_SUBSCRIPTION';
export const PUSH_KEYS_ENTITY = 'PUSH_KEYS';

/** What a notice is about, each a member's choice per subscription. */
export const NOTICE_KINDS = ['MISSED_CALL', 'CUSTOMER_REPLY', 'WEBHOOK_FAILING'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** A subscription as stored: the browser's endpoint and keys, the member's, and the notices it asked for. */
export interface StoredSubscription {
  id: string;
  memberId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  notify: NoticeKind[];
  createdAt: string;
  updatedAt: string;
}

export const fromSubscriptionItem = (item: Record<string, unknown>): StoredSubscription => ({
  id: String(item.id),
  memberId: Number(item.memberId),
  endpoint: String(item.endpoint),
  p256dh: String(item.p256dh),
  auth: String(item.auth),
  notify: (item.notify as NoticeKind[] | undefined) ?? [],
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt ?? item.createdAt),
});

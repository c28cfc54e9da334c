import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '#shared/clock';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { keys } from '#shared/store/keys';
import { DELIVERY_LOG_DAYS, fromDeliveryItem, fromWebhookItem, toDeliveryItem, toExpiryItem, toWebhookItem, WEBHOOK_CHANGES, webhookAudit, webhookCounterNames, webhookKeys, type WebhookRecord } from './entity';
import { BadRequestError, ConflictError, NotFoundError } from '#shared/errors';
import type { Page, PageRequest } from '#shared/pagination';
import { MAX_WEBHOOKS_PER_ORGANIZATION, type DeliveryFilter, type DisabledReason, type WebhookDelivery } from './schema';
import { counterUpdate } from '#shared/store/counters';
import { queryAll, rangePage } from '#shared/store/query-page';
import { countedCollectionPage, filteredCollectionPage, refuseFilters, resumablePage, settledLogSource } from '#shared/store/change-log';
import { retentionWindow } from '#shared/store/retention';
import { conditionNotHeld, deleteItem, insertIfAbsent, transact, writeAlone, writeAloneWhereHolds, type TransactWrite } from '#shared/store/transact';
import { setFields } from '#shared/store/update-fields';
import { auditDeletion } from '#shared/audit/deletion';

export const WEBHOOK_NOT_FOUND = 'Webhook not found';
const notFound = () => new NotFoundError(WEBHOOK_NOT_FOUND);

/** Counts the subscription in, on condition that the organization has fewer than the maximum. */
function countedIn(organizationId: string): TransactWrite {
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: keys.counter(organizationId, webhookCounterNames.webhooks),
        UpdateExpression: 'ADD #count :one',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS_PER_ORGANIZATION },
      },
    },
    onConditionFailed: () => new BadRequestError(`An organization has at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks; delete one first`, 'WEBHOOK_LIMIT'),
  };
}

/** A create that found its url and events claimed: by the subscription `claim.webhookId` names, or by none any more. */
export class SubscriptionClaimed extends Error {}

/**
 * What names a url and a set of events, whatever the order of the events: the key of the claim a create puts. The
 * url is hashed, as it may be up to 2 KB long.
 */
export function subscriptionClaim(url: string, events: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify([url, [...new Set(events)].sort()])).digest('base64url');
}

/**
 * The subscription, counted in, and its claim of its url and events, in one transaction. The claim is put where none
 * is (`staleClaimOf` undefined), or over the one held by `staleClaimOf`, a subscription since disabled, deleted or
 * moved: another create's claim meanwhile answers SubscriptionClaimed, so of two creates at once one alone is made.
 */
export async function createWebhook(organizationId: string, webhook: WebhookRecord, staleClaimOf?: string): Promise<void> {
  const claim = {
    ...webhookKeys.webhookClaim(organizationId, subscriptionClaim(webhook.url, webhook.events)),
    entity: 'WEBHOOK_CLAIM',
    webhookId: webhook.id,
  };
  const condition = staleClaimOf === undefined ? { ConditionExpression: 'attribute_not_exists(pk)' } : { ConditionExpression: 'webhookId = :stale', ExpressionAttributeValues: { ':stale': staleClaimOf } };
  const claimed: TransactWrite = { item: { Put: { TableName: config.tableName, Item: claim, ...condition } }, onConditionFailed: () => new SubscriptionClaimed() };
  const expiry = webhook.expiresAt ? [expiryWrite(organizationId, webhook.id, webhook.expiresAt)] : [];
  // The claim first: at the limit of 16, a create that another subscription's claim answers is answered by it, not refused.
  await transact([claimed, insertIfAbsent(toWebhookItem(organizationId, webhook)), countedIn(organizationId), ...expiry]);
}

/**
 * The expiry item of a subscription whose `expiresAt` is set (its TTL that time), or its removal when cleared: always
 * in the transaction that writes the subscription's own `expiresAt`, so the two never part (an item left with the old
 * time would disable the subscription then, or one missing would leave DynamoDB's TTL nothing to remove).
 */
function expiryWrite(organizationId: string, webhookId: string, expiresAt: string | null): TransactWrite {
  return expiresAt ? { item: { Put: { TableName: config.tableName, Item: toExpiryItem(organizationId, webhookId, expiresAt) } } } : deleteItem(webhookKeys.webhookExpiry(organizationId, webhookId));
}

/**
 * Disables a subscription whose `expiresAt` has passed, EXPIRED, while it is enabled and still ends at that time (not
 * re-enabled with another since): the write that its `webhook.disabled` event stands for, made once.
 */
export async function expireWebhook(organizationId: string, webhookId: string, expiresAt: string, at: string): Promise<boolean> {
  return writeAloneWhereHolds(
    setFields(webhookKeys.webhook(organizationId, webhookId), { isEnabled: false, disabledReason: 'EXPIRED', updatedAt: at }, {
      condition: { expression: 'isEnabled = :enabled AND expiresAt = :expiresAt', values: { ':enabled': true, ':expiresAt': expiresAt } },
      onConditionFailed: conditionNotHeld,
    }),
  );
}

/** The id of the subscription that holds the claim of a url and events, if one does (it may since have moved, been disabled or deleted). */
export async function claimHolder(organizationId: string, url: string, events: readonly string[]): Promise<string | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhookClaim(organizationId, subscriptionClaim(url, events)), ConsistentRead: true }));
  return Item?.webhookId as string | undefined;
}

export async function getWebhook(organizationId: string, webhookId: string): Promise<WebhookRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhookId), ConsistentRead: true }));
  return Item && fromWebhookItem(Item);
}

/**
 * A page of the organization's subscriptions, newest first, or of those to one url exactly: its at most 16 read whole
 * and kept by url, counted over what is kept.
 */
export async function listWebhooksPage(organizationId: string, { url, ...request }: PageRequest & { url?: string }): Promise<Page<WebhookRecord>> {
  const collection = webhookKeys.webhooks(organizationId);
  if (url !== undefined) return filteredCollectionPage(request, { organizationId, collection, changes: WEBHOOK_CHANGES, filters: { url } }, fromWebhookItem);
  return countedCollectionPage(request, { organizationId, collection, counter: webhookCounterNames.webhooks, changes: WEBHOOK_CHANGES }, fromWebhookItem);
}

/** Every subscription of the organization (at most 16): what an event fans out to. */
export async function allWebhooks(organizationId: string): Promise<WebhookRecord[]> {
  return (await queryAll(webhookKeys.webhooks(organizationId))).map(fromWebhookItem);
}

/**
 * Sets the given fields of an existing subscription and answers it as it now is. A change of `expiresAt` writes the
 * subscription's expiry item in the same transaction (then read back, as a transaction answers no item).
 */
export async function updateWebhook(organizationId: string, webhookId: string, changes: Partial<WebhookRecord>, { unchangedSince }: { unchangedSince?: string } = {}): Promise<WebhookRecord> {
  const condition = unchangedSince ? { expression: 'updatedAt = :seen', values: { ':seen': unchangedSince } } : undefined;
  const notAsRead = () => (unchangedSince ? new ConflictError('The webhook changed while its secret was rotated; rotate again') : notFound());
  const update = setFields(webhookKeys.webhook(organizationId, webhookId), changes, { condition, onConditionFailed: notAsRead });
  if (changes.expiresAt !== undefined) {
    await transact([update, expiryWrite(organizationId, webhookId, changes.expiresAt)]);
    const updated = await getWebhook(organizationId, webhookId);
    // Deleted between the two: as a delete just after the change would leave it.
    if (!updated) throw notFound();
    return updated;
  }
  const { item } = update;
  const { Attributes } = await dynamo.send(new UpdateCommand({ ...item.Update!, ReturnValues: 'ALL_NEW' })).catch((error: unknown) => {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    throw notAsRead();
  });
  return fromWebhookItem(Attributes!);
}

export async function deleteWebhook(organizationId: string, webhookId: string): Promise<void> {
  await transact([
    deleteItem(webhookKeys.webhook(organizationId, webhookId), notFound),
    counterUpdate(organizationId, webhookCounterNames.webhooks, -1),
    ...auditDeletion(organizationId, webhookAudit, webhookId),
  ]);
}

/**
 * Marks the subscription failing since `at`, unless it already was: the first failure of a run starts the clock.
 * Already failing, or deleted meanwhile: either way nothing to mark.
 */
export async function markFailing(organizationId: string, webhookId: string, at: string): Promise<void> {
  await writeAloneWhereHolds(
    setFields(webhookKeys.webhook(organizationId, webhookId), { failingSince: at }, {
      condition: { expression: 'attribute_not_exists(failingSince) OR failingSince = :null', values: { ':null': null } },
      onConditionFailed: conditionNotHeld,
    }),
  );
}

/**
 * Counts a failed attempt against the subscription's receiver and, once enough failed in a row, pauses it until
 * `pausedUntil`. The count is as exact as the attempts made together allow: it decides only when to pause.
 */
export async function countFailure(organizationId: string, webhookId: string, pausedUntil: string | null): Promise<void> {
  await writeAloneWhereHolds({
    item: {
      Update: {
        TableName: config.tableName,
        Key: webhookKeys.webhook(organizationId, webhookId),
        UpdateExpression: `ADD failuresInARow :one${pausedUntil ? ' SET pausedUntil = :until' : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1, ...(pausedUntil ? { ':until': pausedUntil } : {}) },
      },
    },
    onConditionFailed: conditionNotHeld,
  });
}

/**
 * Takes the probe of a subscription whose pause has ended: its pause moves on to `until` (the probe's time to answer),
 * on condition it is still the one read, so of the jobs that come back together one alone makes the attempt.
 */
export async function claimProbe(organizationId: string, webhookId: string, seen: string, until: string): Promise<boolean> {
  return writeAloneWhereHolds(
    setFields(webhookKeys.webhook(organizationId, webhookId), { pausedUntil: until }, { condition: { expression: 'pausedUntil = :seen', values: { ':seen': seen } }, onConditionFailed: conditionNotHeld }),
  );
}

/**
 * Disables the subscription for what its receiver at `url` did, only while it still posts there: a receiver the
 * subscription has since moved away from (a PATCH of its url while the attempt was in flight) cannot switch off the
 * new one. Deleted or moved meanwhile: nothing to disable.
 */
export async function disableWebhookAt(organizationId: string, webhookId: string, url: string, disabledReason: DisabledReason): Promise<void> {
  await writeAloneWhereHolds(
    setFields(webhookKeys.webhook(organizationId, webhookId), { isEnabled: false, disabledReason, updatedAt: new Date(clock.now()).toISOString() }, {
      condition: { expression: '#url = :attempted', names: { '#url': 'url' }, values: { ':attempted': url } },
      onConditionFailed: conditionNotHeld,
    }),
  );
}

export async function recordDelivery(organizationId: string, webhookId: string, delivery: WebhookDelivery): Promise<void> {
  await writeAlone(insertIfAbsent(toDeliveryItem(organizationId, webhookId, delivery)));
}

/**
 * Writes the outcome of a PENDING delivery's attempt over it, indexes included (its status moved). Unconditional:
 * a job SQS hands over twice was attempted twice, and the later outcome is as true as the first.
 */
export async function completeDelivery(organizationId: string, webhookId: string, delivery: WebhookDelivery): Promise<void> {
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: toDeliveryItem(organizationId, webhookId, delivery) }));
}

/** A page of the subscription's delivery attempts of the last 30 days, newest first, of one event type and/or status when asked. */
export async function listDeliveriesPage(organizationId: string, webhookId: string, { page, limit, cursor, updatedSince, ...filter }: PageRequest & DeliveryFilter): Promise<Page<WebhookDelivery>> {
  if (updatedSince !== undefined) {
    // As on every list: a redelivery's record moves from PENDING under an id a poller filtering by status has passed.
    refuseFilters(filter);
    // A sync reads the attempts made since, oldest first, by their ids (ULIDs of the attempt's time); a redelivery's
    // PENDING record is completed under its id, so its outcome is read from the deliveries list itself.
    const source = settledLogSource('delivery', updatedSince, (from, to) => webhookKeys.webhookDeliveriesBetween(organizationId, webhookId, from, to, filter));
    const { items, totalCount, nextCursor } = await resumablePage(source, { page, limit, cursor });
    return { items: items.map(fromDeliveryItem), totalCount, page, limit, nextCursor };
  }
  const [from, to] = retentionWindow('delivery', DELIVERY_LOG_DAYS);
  const { items, totalCount, nextCursor } = await rangePage({ ...webhookKeys.webhookDeliveriesBetween(organizationId, webhookId, from, to, filter), movingStart: true }, { page, limit, cursor });
  return { items: items.map(fromDeliveryItem), totalCount, page, limit, nextCursor };
}

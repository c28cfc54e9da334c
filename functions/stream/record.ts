import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventIdOf } from '../events/ids';
import { eventsOf, occurredAtOf, type ItemChange } from '../events/derive';
import { logger } from '#shared/observability';
import { recordEvents } from '../events/store';
import type { Event } from '../events/schema';
import { auditEntriesOf } from '../audit-log/derive';
import { recordAuditEntries } from '../audit-log/store';
import { enqueueDeliveries, subscriptionsOnce } from '../webhooks/fan-out';
import { disableOnExpiry } from '../webhooks/expiry';
import { processInOrder, type Deadline } from './in-order';
import { changeOf } from './change';
import { resourceChangesOf } from '../resource-changes';
import type { ResourceChanges } from '#shared/resource';
import { automationEffectsOnce } from '../automations/on-events';

const loaded = new Map<string, Promise<ResourceChanges>>();

/**
 * The events and audited records of the resource whose items carry this `entity`, its module loaded on the first
 * change of one of them, once per container; undefined for items no resource lists (counters, claims, name items).
 */
function changesOfEntity(entity: unknown): Promise<ResourceChanges> | undefined {
  const load = typeof entity === 'string' && Object.hasOwn(resourceChangesOf, entity) ? resourceChangesOf[entity] : undefined;
  if (!load) return undefined;
  let changes = loaded.get(entity as string);
  if (!changes) {
    changes = load().then((module) => module.changes);
    loaded.set(entity as string, changes);
    // A load that failed is tried again with the record handed again, not remembered.
    changes.catch(() => loaded.delete(entity as string));
  }
  return changes;
}

function eventsOfRecord({ change, sequenceNumber, streamTimeMs }: NonNullable<ReturnType<typeof changeOf>>, changes: ResourceChanges | undefined): Event[] {
  const derived = eventsOf(change, changes);
  if (derived.length === 0) return [];
  // The record's own time is rounded down (to the second in AWS, the minute in DynamoDB Local); the change's stamp is not.
  const occurredAtMs = occurredAtOf(change, streamTimeMs);
  // An `*.updated` type always comes with its previousAttributes (shared/resource.ts), as the Event schema says.
  return derived.map((event) => ({
    id: eventIdOf(occurredAtMs, sequenceNumber),
    type: event.type,
    occurredAt: new Date(occurredAtMs).toISOString(),
    organizationId: event.organizationId,
    data: event.data,
    ...(event.previousAttributes ? { previousAttributes: event.previousAttributes } : {}),
  }) as Event);
}

/**
 * The table's stream → events and audit entries. Only committed changes reach the stream, so an event exists exactly
 * when its change does. Record by record, in the shard's order: a record's events and the audit entries of the writes
 * a writer stamped on it are recorded, then its events start, stop or move automations' runs, then they are queued
 * for the subscriptions that asked for their types (each organization's automations on a trigger, and its
 * subscriptions, read once per batch). The first record that fails stops the batch and is reported (./in-order.ts):
 * it and the records after it are handed again, the records before it never, so a record whose webhooks were queued
 * is not queued twice. Event and entry ids come from the records, so a record handed again rewrites the same events
 * and entries, and receivers see the same webhook-id (deliveries are at least once).
 */
export async function handler(batch: DynamoDBStreamEvent, context?: Deadline): Promise<DynamoDBBatchResponse> {
  const subscriptionsOf = subscriptionsOnce();
  const automationEffectsOf = automationEffectsOnce();
  const answer = await processInOrder(
    batch.Records,
    async (record) => {
      const change = changeOf(record);
      if (!change) return;
      const changes = await changesOfEntity((change.change.newItem ?? change.change.oldItem)?.entity);
      const events = eventsOfRecord(change, changes);
      const entries = auditEntriesOf(change.change, change.sequenceNumber, changes);
      // What a record handed again rewrites alike goes first; its webhooks are queued only once both are written, so a
      // failed audit write cannot leave them queued for a second time.
      await Promise.all([entries.length ? recordAuditEntries(entries) : undefined, events.length ? recordEvents(events) : undefined]);
      // Automations' starts and stops are idempotent too, so they go before the webhooks are queued.
      if (events.length) await automationEffectsOf(events, change.change);
      if (events.length) await enqueueDeliveries(events, subscriptionsOf);
      await disableOnExpiry(change.change);
    },
    context,
  );
  logger.debug('stream batch handled', { records: batch.Records.length, failedAt: answer.batchItemFailures[0]?.itemIdentifier });
  return answer;
}

import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { eventIdOf } from '../events/ids';
import { eventsOf, occurredAtOf, type ItemChange } from '../events/derive';
import { logger } from '#shared/observability';
import { recordEvents } from '../events/store';
import type { Event } from '../events/schema';
import { auditEntriesOf } from '../audit-log/derive';
import { recordAuditEntries, type OrganizationEntry } from '../audit-log/store';
import { enqueueDeliveries, subscriptionsOnce } from '../webhooks/fan-out';
import { disableOnExpiry } from '../webhooks/expiry';
import { processInOrder, type Deadline } from './in-order';
import { changeOf } from './change';
import { resourceChangesOf } from '../resource-changes';
import type { ResourceChanges } from '#shared/resource';
import { automationEffectsOnce } from '../automations/triggers/on-events';
import { OWNER_ALERTS } from '../sms/owner-alert-texts';
import { noticeOf } from '../notifications/notices';

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

/** A record's change and what it makes: its events and the audit entries of the write stamped on it. */
interface Derived {
  record: DynamoDBRecord;
  change?: ItemChange;
  events: Event[];
}

/**
 * Each record's events and audit entries, in the shard's order, up to the first record that fails (its resource's
 * module not loaded: `failedAt`, or -1): it and the records after it are handed again.
 */
async function deriveInOrder(records: DynamoDBRecord[]): Promise<{ derived: Derived[]; entries: OrganizationEntry[]; failedAt: number }> {
  const derived: Derived[] = [];
  const entries: OrganizationEntry[] = [];
  for (const [index, record] of records.entries()) {
    try {
      const change = changeOf(record);
      const changes = change && (await changesOfEntity((change.change.newItem ?? change.change.oldItem)?.entity));
      derived.push({ record, change: change?.change, events: change ? eventsOfRecord(change, changes) : [] });
      if (change) entries.push(...auditEntriesOf(change.change, change.sequenceNumber, changes));
    } catch (error) {
      logger.error('stream record failed; it and the records after it are handed again', { error, sequenceNumber: record.dynamodb?.SequenceNumber, left: records.length - index });
      return { derived, entries, failedAt: index };
    }
  }
  return { derived, entries, failedAt: -1 };
}

/**
 * The table's stream → events and audit entries. Only committed changes reach the stream, so an event exists exactly
 * when its change does. A batch's events and the audit entries of the writes a writer stamped on its records are
 * written together (one BatchWriteItem per 25: a record would otherwise cost a round trip of its own, and a backlog
 * behind one organization's bulk writes would hold every organization's events, runs and webhooks). While they are
 * written, record by record in the shard's order, its events start, stop or move automations' runs and text the
 * organization's admins the owner alerts they call for (idempotent, so a missed call's text-back waits for no log
 * write) and push members the notices they asked for; then, once the logs are written, record by record, its events
 * are queued for the subscriptions that asked for their types (each organization's automations on a trigger, and its
 * subscriptions, read once per batch). The
 * first record that fails stops the batch and is reported (./in-order.ts):
 * it and the records after it are handed again, the records before it never, so a record whose webhooks were queued is
 * not queued twice; a failed log write is the first record's. Event and entry ids come from the records, so a record
 * handed again rewrites the same events and entries, starts no second run, and receivers see the same webhook-id
 * (deliveries are at least once).
 */
export async function handler(batch: DynamoDBStreamEvent, context?: Deadline): Promise<DynamoDBBatchResponse> {
  const subscriptionsOf = subscriptionsOnce();
  const automationEffectsOf = automationEffectsOnce();
  const { derived, entries: batchEntries, failedAt } = await deriveInOrder(batch.Records);
  const batchEvents = derived.flatMap(({ events }) => events);
  const byRecord = new Map(derived.map((entry) => [entry.record, entry]));
  const records = derived.map(({ record }) => record);
  // What a record handed again rewrites alike; its webhooks are queued only once both are written, so a failed write
  // cannot leave them queued for a second time. A failure is the first record's; settled before the batch is answered.
  const logsWritten = Promise.all([batchEntries.length ? recordAuditEntries(batchEntries) : undefined, batchEvents.length ? recordEvents(batchEvents) : undefined]);
  const logsSettled = logsWritten.then(
    () => undefined,
    () => undefined,
  );
  const started = await processInOrder(
    records,
    async (record) => {
      const { change, events } = byRecord.get(record)!;
      if (change && events.length) await automationEffectsOf(events, change);
      // Idempotent as the runs are (a marker per event and admin), so a record handed again texts no one twice.
      if (events.some((event) => Object.hasOwn(OWNER_ALERTS, event.type))) await (await import('../sms/owner-alerts')).alertOwners(events);
      // Members' push notices (a missed call, a reply, a failing webhook): now or never, so a push service's failure is not retried.
      if (events.some((event) => noticeOf(event))) await (await import('../notifications/send')).pushNotices(events);
    },
    context,
  );
  const startedFailure = started.batchItemFailures[0]?.itemIdentifier;
  const startedUpTo = startedFailure === undefined ? records.length : records.findIndex((record) => record.dynamodb?.SequenceNumber === startedFailure);
  const queued = await processInOrder(
    records.slice(0, startedUpTo),
    async (record) => {
      await logsWritten;
      const { change, events } = byRecord.get(record)!;
      if (!change) return;
      if (events.length) await enqueueDeliveries(events, subscriptionsOf);
      await disableOnExpiry(change);
    },
    context,
  );
  await logsSettled;
  const answer = queued.batchItemFailures.length ? queued : started;
  // The records before the one that could not be read all done: it is the first to hand again.
  const unread = answer.batchItemFailures.length === 0 && failedAt >= 0 ? [{ itemIdentifier: batch.Records[failedAt]!.dynamodb!.SequenceNumber! }] : [];
  const batchItemFailures = [...answer.batchItemFailures, ...unread];
  logger.debug('stream batch handled', { records: batch.Records.length, failedAt: batchItemFailures[0]?.itemIdentifier });
  return { batchItemFailures };
}

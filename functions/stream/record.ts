import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { eventIdOf } from '../events/ids';
import { eventsOf, occurredAtOf, type ItemChange } from '../events/derive';
import { logger } from '../../shared/observability';
import { recordEvents } from '../events/store';
import type { Event } from '../events/schema';
import { enqueueDeliveries, subscriptionsOnce } from '../webhooks/fan-out';
import { processInOrder, type Deadline } from './in-order';

const image = (attributes: unknown) => (attributes ? unmarshall(attributes as Record<string, AttributeValue>) : undefined);

function eventsOfRecord({ eventName, dynamodb }: DynamoDBRecord): Event[] {
  if (!eventName || !dynamodb?.SequenceNumber) return [];
  const change: ItemChange = { kind: eventName, oldItem: image(dynamodb.OldImage), newItem: image(dynamodb.NewImage) };
  const derived = eventsOf(change);
  if (derived.length === 0) return [];
  // The record's own time is rounded down (to the second in AWS, the minute in DynamoDB Local); the change's stamp is not.
  const occurredAtMs = occurredAtOf(change, (dynamodb.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000);
  // An `*.updated` type always comes with its previousAttributes (shared/resource.ts), as the Event schema says.
  return derived.map((event) => ({
    id: eventIdOf(occurredAtMs, dynamodb.SequenceNumber!),
    type: event.type,
    occurredAt: new Date(occurredAtMs).toISOString(),
    organizationId: event.organizationId,
    data: event.data,
    ...(event.previousAttributes ? { previousAttributes: event.previousAttributes } : {}),
  }) as Event);
}

/**
 * The table's stream → events. Only committed changes reach the stream, so an event exists exactly when
 * its change does. Record by record, in the shard's order: a record's events are recorded, then queued for the
 * subscriptions that asked for their types (each organization's read once per batch). The first record that fails
 * stops the batch and is reported (./in-order.ts): it and the records after it are handed again, the records before
 * it never, so a record whose webhooks were queued is not queued twice. Event ids come from the records, so a record
 * handed again rewrites the same events, and receivers see the same webhook-id (deliveries are at least once).
 */
export async function handler(batch: DynamoDBStreamEvent, context?: Deadline): Promise<DynamoDBBatchResponse> {
  const subscriptionsOf = subscriptionsOnce();
  const answer = await processInOrder(
    batch.Records,
    async (record) => {
      const events = eventsOfRecord(record);
      if (events.length === 0) return;
      await recordEvents(events);
      await enqueueDeliveries(events, subscriptionsOf);
    },
    context,
  );
  logger.debug('stream batch handled', { records: batch.Records.length, failedAt: answer.batchItemFailures[0]?.itemIdentifier });
  return answer;
}

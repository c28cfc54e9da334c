import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { eventIdOf } from '../events/ids';
import { eventsOf, occurredAtOf, type ItemChange } from '../events/derive';
import { logger } from '../../shared/observability';
import { recordEvents } from '../events/store';
import type { Event } from '../events/schema';
import { enqueueDeliveries } from '../webhooks/fan-out';

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
 * its change does. Each event is recorded, then queued for the subscriptions that asked for its type. A failure
 * retries the whole batch; event ids come from the records, so retries rewrite the same events and receivers
 * see the same webhook-id again (deliveries are at least once).
 */
export async function handler(batch: DynamoDBStreamEvent): Promise<void> {
  const events = batch.Records.flatMap(eventsOfRecord);
  if (events.length === 0) return;
  await recordEvents(events);
  await enqueueDeliveries(events);
  logger.debug('events recorded', { count: events.length, types: [...new Set(events.map((event) => event.type))] });
}

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { NotFoundError } from '#shared/errors';
import { eventKeys, fromEventItem, toEventItem } from './entity';
import type { Page, PageRequest } from '#shared/pagination';
import { EVENT_RETENTION_DAYS, type Event, type EventType } from './schema';
import { putItems } from '#shared/store/batch-write';
import { rangePage } from '#shared/store/query-page';
import { retentionWindow } from '#shared/store/retention';
import { indexKeyNames } from '#shared/table';
import { resumablePage, settledLogSource } from '#shared/store/change-log';

/** Writes events; putting the same event again (a redelivered stream batch) overwrites it with itself. */
export async function recordEvents(events: Event[]): Promise<void> {
  await putItems(events.map(toEventItem));
}

/** A page of the organization's events, newest first, optionally of one type, with the window's exact count. */
export async function listEventsPage(organizationId: string, { page, limit, cursor, type, updatedSince }: PageRequest & { type?: EventType }): Promise<Page<Event>> {
  if (updatedSince !== undefined) {
    // Events never change: a sync reads those that occurred since, oldest first, by their ids (ULIDs of occurredAt).
    const source = settledLogSource('evt', updatedSince, (from, to) => (type ? { ...eventKeys.eventsOfTypeBetween(organizationId, type, from, to), index: 'gsi1' as const } : eventKeys.eventsBetween(organizationId, from, to)));
    const { items, totalCount, nextCursor } = await resumablePage(source, { page, limit, cursor });
    return { items: items.map(fromEventItem), totalCount, page, limit, nextCursor };
  }
  const [from, to] = retentionWindow('evt', EVENT_RETENTION_DAYS);
  const source = type ? { ...eventKeys.eventsOfTypeBetween(organizationId, type, from, to), index: 'gsi1' as const } : eventKeys.eventsBetween(organizationId, from, to);
  const { items, totalCount, nextCursor } = await rangePage({ ...source, movingStart: true }, { page, limit, cursor });
  return { items: items.map(fromEventItem), totalCount, page, limit, nextCursor };
}

/**
 * One event by its id: one GetItem. An event past the retention window answers 404 as the list leaves it out, though
 * DynamoDB's TTL may not have deleted it yet.
 */
export async function getEvent(organizationId: string, eventId: string): Promise<Event> {
  const [from] = retentionWindow('evt', EVENT_RETENTION_DAYS);
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: eventKeys.event(organizationId, eventId), ConsistentRead: true }));
  if (!Item || eventId < from) throw new NotFoundError('Event not found');
  return fromEventItem(Item);
}

/** The newest `count` events of one type of the last 30 days, newest first: one Query of the type's index partition. */
export async function newestEventsOfType(organizationId: string, type: EventType, count: number): Promise<Event[]> {
  const [from, to] = retentionWindow('evt', EVENT_RETENTION_DAYS);
  const { pk, skBetween } = eventKeys.eventsOfTypeBetween(organizationId, type, from, to);
  const { partitionKey, sortKey } = indexKeyNames('gsi1');
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: config.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': partitionKey, '#sk': sortKey },
      ExpressionAttributeValues: { ':pk': pk, ':from': skBetween[0], ':to': skBetween[1] },
      ScanIndexForward: false,
      Limit: count,
    }),
  );
  return Items.map(fromEventItem);
}

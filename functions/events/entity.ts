import { gunzipSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { EVENT_RETENTION_DAYS, Event } from './schema';
import { TTL_ATTRIBUTE } from '#shared/table';
import { organizationPartition, type Key, keySamplesOf } from '#shared/store/keys';

const org = organizationPartition;

/**
 * The organization's events, newest first, in a partition of their own (evt_ ids are ULIDs), and by
 * type in gsi1; events expire after 30 days (TTL), so the lists read a window of ids.
 */
export const eventKeys = {
  event: (o: string, eventId: string): Key => ({ pk: `${org(o)}#EVENTS`, sk: `EVENT#${eventId}` }),
  eventsBetween: (o: string, fromId: string, toId: string) => ({ pk: `${org(o)}#EVENTS`, skBetween: [`EVENT#${fromId}`, `EVENT#${toId}`] as [string, string] }),
  eventIndexes: (o: string, event: { id: string; type: string }) => ({ gsi1pk: `${org(o)}#EVENTS#TYPE#${event.type}`, gsi1sk: event.id }),
  eventsOfTypeBetween: (o: string, type: string, fromId: string, toId: string) => ({ pk: `${org(o)}#EVENTS#TYPE#${type}`, skBetween: [fromId, toId] as [string, string] }),
} as const;

export const eventKeySamples = keySamplesOf(eventKeys, {
  event: ['evt_1'],
  eventsBetween: ['evt_0', 'evt_9'],
  eventIndexes: [{ id: 'evt_1', type: 'lead.created' }],
  eventsOfTypeBetween: ['lead.created', 'evt_0', 'evt_9'],
});

const DAY_SECONDS = 86_400;

/**
 * From this many bytes, an event's record and previous values are kept gzipped in one binary attribute (`packed`): each
 * can pass 256 KB, where an item holds 400 KB in all, and an event that could not be written would fail its stream
 * record until it is parked. Text compresses several times over.
 */
const PACK_FROM = 32 * 1024;

export function toEventItem(event: Event) {
  const expiresAt = Math.floor(Date.parse(event.occurredAt) / 1000) + EVENT_RETENTION_DAYS * DAY_SECONDS;
  const { data, previousAttributes, ...described } = event as Event & { previousAttributes?: unknown };
  const payload = JSON.stringify({ data, previousAttributes });
  const carried = Buffer.byteLength(payload) < PACK_FROM ? { data, ...(previousAttributes === undefined ? {} : { previousAttributes }) } : { packed: gzipSync(payload) };
  return {
    ...eventKeys.event(event.organizationId, event.id),
    ...eventKeys.eventIndexes(event.organizationId, event),
    entity: 'EVENT',
    ...described,
    ...carried,
    [TTL_ATTRIBUTE]: expiresAt,
  };
}

export const fromEventItem = ({ packed, ...item }: Record<string, unknown>): Event =>
  v.parse(Event, packed instanceof Uint8Array ? { ...item, ...JSON.parse(gunzipSync(packed).toString('utf8')) } : item);

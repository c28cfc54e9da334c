import * as v from 'valibot';
import { EVENT_RETENTION_DAYS, Event } from './schema';
import { TTL_ATTRIBUTE } from '../../shared/table';
import { keys } from '../../shared/store/keys';

const DAY_SECONDS = 86_400;

export function toEventItem(event: Event) {
  const expiresAt = Math.floor(Date.parse(event.occurredAt) / 1000) + EVENT_RETENTION_DAYS * DAY_SECONDS;
  return {
    ...keys.event(event.organizationId, event.id),
    ...keys.eventIndexes(event.organizationId, event),
    entity: 'EVENT',
    ...event,
    [TTL_ATTRIBUTE]: expiresAt,
  };
}

export const fromEventItem = (item: Record<string, unknown>): Event => v.parse(Event, item);

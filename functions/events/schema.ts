import * as v from 'valibot';
import { PageQuery, pageSchema, PrefixedId, Timestamp } from '../../shared/schema';
import { EVENT_TYPES } from './types';

export { EVENT_TYPES, type EventType } from './types';

export const EventTypeSchema = v.picklist(EVENT_TYPES, `type must be one of ${EVENT_TYPES.join(', ')}`);

/** An event as the API and webhooks deliver it; `data` is the resource as the API returns it. */
export const Event = v.object({
  id: v.string(),
  type: v.picklist(EVENT_TYPES),
  occurredAt: Timestamp,
  organizationId: v.string(),
  data: v.record(v.string(), v.unknown()),
});
export type Event = v.InferOutput<typeof Event>;

export const EventListQuery = v.object({ ...PageQuery.entries, type: v.optional(EventTypeSchema) });

export const EventPage = pageSchema('events', Event);

export const EventIdPath = v.object({ eventId: PrefixedId('evt', 'eventId') });
export const EventResponse = v.object({ event: Event });

/** How long events are kept (and listed). */
export const EVENT_RETENTION_DAYS = 30;

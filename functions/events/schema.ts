import * as v from 'valibot';
import { PageQuery, pageSchema, PrefixedId, Timestamp } from '#shared/schema';
import { EVENT_TYPES, type EventType } from './types';
import { prose } from '#shared/prose';

export { EVENT_TYPES, type EventType } from './types';

/**
 * The types whose events carry `previousAttributes`: each source's `updated` type (`updatedTypes`), which is always
 * `<resource>.updated`. Read from the generated list by that name rather than generated beside it, so `npm run
 * generate` still runs from an older committed list; test/openapi.test.ts holds the split to the sources.
 */
type UpdatedEventType = Extract<EventType, `${string}.updated`>;
const isUpdated = (type: EventType): type is UpdatedEventType => type.endsWith('.updated');
const UPDATED_EVENT_TYPES = EVENT_TYPES.filter(isUpdated);
const OTHER_EVENT_TYPES = EVENT_TYPES.filter((type): type is Exclude<EventType, UpdatedEventType> => !isUpdated(type));

export const EventTypeSchema = v.picklist(EVENT_TYPES, `type must be one of ${EVENT_TYPES.join(', ')}`);

const eventFields = {
  occurredAt: Timestamp,
  organizationId: v.string(),
  data: v.record(v.string(), v.unknown()),
};

/** What a `*.updated` event adds: the fields the update changed, each with its value before it. */
export const PreviousAttributes = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description(
    prose`
      The fields of \`data\` the update changed, each with its value before the change (\`data\` holds the new
      values), as Stripe’s \`previous_attributes\`: top-level fields, each whole; a field the update added is null.
      \`updatedAt\` is bookkeeping and never listed; keys, versions and counters kept beside the record are not part
      of \`data\`. An update that changes nothing else emits no event, so this holds at least one field.
    `,
  ),
);

/**
 * An event as the API and webhooks deliver it; `data` is the resource as the API returns it, and a `*.updated`
 * event also carries `previousAttributes`.
 */
export const Event = v.variant('type', [
  v.object({ id: v.string(), type: v.picklist(UPDATED_EVENT_TYPES), ...eventFields, previousAttributes: PreviousAttributes }),
  v.object({ id: v.string(), type: v.picklist(OTHER_EVENT_TYPES), ...eventFields }),
]);
export type Event = v.InferOutput<typeof Event>;

export const ListEventsQuery = v.object({ ...PageQuery.entries, type: v.optional(EventTypeSchema) });

export const EventPage = pageSchema('events', Event);

/** `GET /v1/events/samples`: the one type asked for, required. */
export const EventSamplesQuery = v.object({ type: EventTypeSchema });

/** The newest events of a type, or its example: each as `GET /v1/events/{eventId}` answers it. */
export const EventSamples = v.object({ data: v.array(Event) });

/** How many of the newest real events of a type the samples answer. */
export const SAMPLE_COUNT = 3;

export const EventIdPath = v.object({ eventId: PrefixedId('evt', 'eventId') });
export const EventResponse = v.object({ event: Event });

/** How long events are kept (and listed). */
export const EVENT_RETENTION_DAYS = 30;

import type { Event, EventType } from './schema';
import { SAMPLE_COUNT } from './schema';
import { SAMPLE_DATA, SAMPLE_DATA_OF, SAMPLE_OCCURRED_AT } from './samples';
import { SAMPLE_ID_PREFIX } from './samples-file';
import { newestEventsOfType } from './store';

/** The fields of a record that an update's `previousAttributes` never names: its id and its times. */
const NEVER_PREVIOUS = new Set(['id', 'organizationId', 'createdAt', 'updatedAt']);

/**
 * A type's example, but its organizationId (the caller's): its id, stable, `evt_sample_<type, its dot an underscore>`.
 * A `*.updated` example (every such type carries previousAttributes) names the record's first field but its id and
 * times as one the update added (null before it), as the field's value before the change is not in the example.
 */
function sampleOf(type: EventType, organizationId: string): Event {
  const dataName = SAMPLE_DATA_OF[type];
  const data = SAMPLE_DATA[dataName]!;
  const changed = Object.keys(data).find((field) => !NEVER_PREVIOUS.has(field)) ?? 'id';
  const previous = type.endsWith('.updated') ? { previousAttributes: { [changed]: null } } : {};
  return { id: `${SAMPLE_ID_PREFIX}${type.replaceAll('.', '_')}`, type, occurredAt: SAMPLE_OCCURRED_AT[dataName]!, organizationId, data, ...previous } as Event;
}

/**
 * `GET /v1/events/samples`: the organization's newest events of the type, or, with none, the type's example as one
 * event of the organization (functions/events/samples.ts, generated from the document's examples).
 */
export async function eventSamples(organizationId: string, type: EventType): Promise<Event[]> {
  const newest = await newestEventsOfType(organizationId, type, SAMPLE_COUNT);
  if (newest.length > 0) return newest;
  return [sampleOf(type, organizationId)];
}

import type { Event, EventType } from './schema';
import { SAMPLE_COUNT } from './schema';
import { EVENT_SAMPLES } from './samples';
import { newestEventsOfType } from './store';

/**
 * `GET /v1/events/samples`: the organization's newest events of the type, or, with none, the type's example as one
 * event of the organization (functions/events/samples.ts, generated from the document's examples).
 */
export async function eventSamples(organizationId: string, type: EventType): Promise<Event[]> {
  const newest = await newestEventsOfType(organizationId, type, SAMPLE_COUNT);
  if (newest.length > 0) return newest;
  const { id, occurredAt, data, previousAttributes } = EVENT_SAMPLES[type];
  return [{ id, type, occurredAt, organizationId, data, ...(previousAttributes ? { previousAttributes } : {}) } as Event];
}

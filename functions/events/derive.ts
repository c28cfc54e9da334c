import type { ItemChange, ResourceChanges } from '#shared/resource';
import type { EventType } from './types';

export type { ItemChange };

type Item = Record<string, unknown>;

/** An event before it has an id: what changed, and the resource as the API returns it. */
export interface DerivedEvent {
  type: EventType;
  organizationId: string;
  data: Item;
  /** On a `*.updated` event: the changed fields' values before the change. */
  previousAttributes?: Item;
}

/** `ORG#<organizationId>…`: every partition key starts with the organization. */
const organizationOf = (item: Item) => String(item.pk).split('#')[1]!;

/**
 * The events one committed item change stands for, by the source its item's `entity` names among its resource's
 * changes (functions/<resource>/changes.ts). Items no resource lists (counters, indexes, name claims) emit nothing.
 */
export function eventsOf(change: ItemChange, changes: ResourceChanges | undefined): DerivedEvent[] {
  const item = change.newItem ?? change.oldItem;
  const source = changes?.events?.find((candidate) => candidate.entity === item?.entity);
  if (!item || !source) return [];
  return source.eventsOf(change).map(({ type, data, previousAttributes }) => ({ type: type as EventType, organizationId: organizationOf(item), data, ...(previousAttributes ? { previousAttributes } : {}) }));
}

/**
 * How coarse a stream record's own time is: DynamoDB Streams round it down to the second, DynamoDB Local to
 * the minute. The change was committed at or after that time and before it plus this.
 */
export const STREAM_TIME_PRECISION_MS = 60_000;

/** How long before its commit a write may stamp its item: longer than any API request runs. */
const MAX_STAMP_LEAD_MS = 60_000;

function stampOf(item: Item | undefined, field: 'createdAt' | 'updatedAt'): number | undefined {
  const at = typeof item?.[field] === 'string' ? Date.parse(item[field]) : NaN;
  return Number.isFinite(at) ? at : undefined;
}

/**
 * When a change happened, to the millisecond (docs/decisions/events-and-webhooks.md, "When an event occurred"). The stream record's
 * time is rounded down, so the change's own stamp is used: an insert's createdAt, an update's updatedAt when the
 * update moved it. A stamp is believed only as close to the record's time as a write's stamp can be (not a
 * createdAt a caller gave for an inquiry ingested late). A change that stamps nothing of itself (a delete, an
 * SMS status, an item kept without updatedAt) happened at the earliest time it can have: the record's time, or
 * the item's last stamp when that is later, so it never precedes the item's previous change.
 */
export function occurredAtOf({ kind, oldItem, newItem }: ItemChange, streamTimeMs: number): number {
  const plausible = (at: number | undefined, earliest: number) => at !== undefined && at >= earliest && at < streamTimeMs + STREAM_TIME_PRECISION_MS;
  const own =
    kind === 'INSERT' ? (stampOf(newItem, 'createdAt') ?? stampOf(newItem, 'updatedAt')) : kind === 'MODIFY' && newItem?.updatedAt !== oldItem?.updatedAt ? stampOf(newItem, 'updatedAt') : undefined;
  if (plausible(own, streamTimeMs - MAX_STAMP_LEAD_MS)) return own!;
  const item = newItem ?? oldItem;
  const last = stampOf(item, 'updatedAt') ?? stampOf(item, 'createdAt');
  return plausible(last, streamTimeMs) ? last! : streamTimeMs;
}

import { decodeTime } from 'ulid';

/**
 * How the inbound authorizer's container bounds the reads of gsi1 that posts to unknown endpoint ids cost (its answer
 * is not cached by API Gateway, so each post would read once):
 * - `perSource`: the lookups of ids this container has not found that one source IP may cause in a window; past them,
 *   its posts to such ids are refused (401) unread until the window ends. An id found before is always read, so a
 *   shared sender (a form builder's or voice platform's egress) keeps reaching the endpoints it posts to.
 * - `unknownForMs`: an id read and not found is refused unread this long, from any source (a deleted form still
 *   posting, a scanner repeating a URL), unless its id was minted in the last `youngIdMs` (the index may not have it
 *   yet).
 * - `remembered`: each of the three maps holds at most this many entries; the oldest go first.
 */
export const UNKNOWN_ID_LIMITS = { perSource: 20, windowMs: 60_000, unknownForMs: 5 * 60_000, youngIdMs: 60_000, remembered: 10_000 } as const;

/** Sets `key` last in `map` (the newest), dropping the oldest entries past `limit`. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > limit) map.delete(map.keys().next().value as K);
}

/** When the id's ULID says it was minted; undefined for a time no ULID can hold (a forged id). */
function mintedAt(endpointId: string): number | undefined {
  try {
    return decodeTime(endpointId.slice(endpointId.indexOf('_') + 1));
  } catch {
    return undefined;
  }
}

/**
 * One container's memory of endpoint ids and sources (the authorizer keeps one at module scope). `lookUp` answers
 * undefined when a post must be refused unread, else how to settle the read once it answers: the source is charged
 * before the read, once per id in flight (a burst at one new form is one lookup), so posts in flight together cannot
 * pass the bound, and an id that exists costs it nothing.
 */
export function createUnknownIdGuard({ now, limits = UNKNOWN_ID_LIMITS }: { now: () => number; limits?: Record<keyof typeof UNKNOWN_ID_LIMITS, number> }) {
  const known = new Map<string, true>();
  const unknown = new Map<string, number>();
  const sources = new Map<string, { since: number; lookups: number }>();
  /** The ids being read now, and how many posts wait on each read: only the first is charged. */
  const inFlight = new Map<string, number>();
  /** `found` undefined: the read failed, which tells nothing of the id. */
  const settle = (endpointId: string, charged?: { lookups: number }) => (found: boolean | undefined) => {
    const waiting = (inFlight.get(endpointId) ?? 1) - 1;
    if (waiting > 0) inFlight.set(endpointId, waiting);
    else inFlight.delete(endpointId);
    if (found === undefined) return;
    if (found) {
      remember(known, endpointId, true, limits.remembered);
      unknown.delete(endpointId);
      if (charged) charged.lookups -= 1;
      return;
    }
    known.delete(endpointId);
    const at = now();
    const minted = mintedAt(endpointId);
    if (minted === undefined || minted <= at - limits.youngIdMs) remember(unknown, endpointId, at + limits.unknownForMs, limits.remembered);
  };
  return {
    lookUp(endpointId: string, source: string): ((found: boolean | undefined) => void) | undefined {
      if (known.has(endpointId)) return settle(endpointId);
      const waiting = inFlight.get(endpointId);
      if (waiting !== undefined) {
        inFlight.set(endpointId, waiting + 1);
        return settle(endpointId);
      }
      const at = now();
      const until = unknown.get(endpointId);
      if (until !== undefined && until > at) return undefined;
      const current = sources.get(source);
      const entry = current && at - current.since < limits.windowMs ? current : { since: at, lookups: 0 };
      if (entry.lookups >= limits.perSource) return undefined;
      entry.lookups += 1;
      remember(sources, source, entry, limits.remembered);
      inFlight.set(endpointId, 1);
      return settle(endpointId, entry);
    },
  };
}

import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { clock } from '../clock';
import { ApiError } from '../errors';
import { TTL_ATTRIBUTE } from '../table';
import type { Key, KeySamples } from '../store/keys';

/**
 * Requests per source per window, counted in the table, for the endpoints anyone may call without a credential: one
 * caller flooding them meets its own limit and leaves the rest of the route to everyone else (docs/decisions/security.md).
 */
export interface SourceLimit {
  /** Names the counter in its key: no two limits share one. Lower-case letters and dashes. */
  readonly name: string;
  /** Requests one source may make in a window; the next is refused until the window ends. */
  readonly limit: number;
  readonly windowSeconds: number;
  /**
   * What its 429 says was asked too often, of what: `Too many sign-in codes asked for this phone`. Unsaid, the source is
   * a client address: `Too many requests from this address`.
   */
  readonly tooMany?: string;
}

/** Admitted, or refused until the window ends; `first` for the one request that met the limit in its window. */
export type SourceAdmission = { admitted: true } | { admitted: false; retryAfterSeconds: number; first: boolean };

/**
 * A window's counter: a partition per limit and source, no organization's (an anonymous caller names none), a sort key
 * per window, so a new window is a new item and no read resets the old one.
 */
export const sourceLimitKeys = {
  sourceWindow: (name: string, source: string, windowStartMs: number): Key => ({ pk: `SOURCELIMIT#${name}#${source}`, sk: `WINDOW#${windowStartMs}` }),
} as const;

export const sourceLimitKeySamples: KeySamples<typeof sourceLimitKeys> = {
  sourceWindow: () => sourceLimitKeys.sourceWindow('sign-up-minute', '192.0.2.1', 1_700_000_000_000),
};

/** The 16-bit groups of an IPv6 address, `::` expanded and a dotted IPv4 tail read as two groups. */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const [a, b, c, d] = dotted ? dotted.slice(1).map(Number) : [];
  const hex = dotted ? `${address.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}` : address;
  const [head, tail] = hex.includes('::') ? hex.split('::') : [hex, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The source a client address counts as: an IPv4 address itself (an IPv4-mapped IPv6 address as its IPv4), an IPv6
 * address by its /64, the block one subscriber is given, so walking the addresses of one's own block is one source.
 * Anything else (no address) is one source of its own.
 */
export function sourceOfAddress(address: string | undefined): string {
  if (!address || !isIP(address)) return 'unknown';
  if (isIP(address) === 4) return address;
  const groups = ipv6Groups(address.toLowerCase());
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * A source as its key holds it: as it is when short and plain (an address), else its SHA-256, so a client id of 2 000
 * characters (a client's document URL) stays well inside a key's 2 KB.
 */
export const sourceKeyOf = (source: string) => (/^[\w.:/-]{1,64}$/.test(source) ? source : `sha256:${createHash('sha256').update(source).digest('base64url')}`);

/**
 * Counts one request of `source` against `limit`: one UpdateItem, ADD on condition the window's count is at most the
 * limit. The count reaches limit + 1 once, with the first request refused (`first`: the one to tell someone about),
 * and stays there: the requests refused after it fail the condition and write nothing, so a flood adds no stream
 * records. DynamoDB applies the conditional ADDs one at a time, so requests at once never let limit + 1 through. The
 * item expires (TTL) when its window ends; the window is in its key, so an item not yet deleted counts for nothing.
 */
export async function countSourceRequest(limit: SourceLimit, source: string): Promise<SourceAdmission> {
  const at = clock.now();
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = Math.floor(at / windowMs) * windowMs;
  const windowEnd = windowStart + windowMs;
  const refused = (first: boolean): SourceAdmission => ({ admitted: false, retryAfterSeconds: Math.ceil((windowEnd - at) / 1000), first });
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: sourceLimitKeys.sourceWindow(limit.name, sourceKeyOf(source), windowStart),
        UpdateExpression: 'ADD #count :one SET #expires = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count <= :limit',
        ExpressionAttributeNames: { '#count': 'count', '#expires': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit.limit, ':expires': Math.ceil(windowEnd / 1000) },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const count = Number(Attributes?.count);
    return count <= limit.limit ? { admitted: true } : refused(true);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return refused(false);
    throw error;
  }
}

/**
 * The API's answer to a source past its limit: 429 `RATE_LIMITED`, in the limit's own words (the phone's, or the
 * address's), with `Retry-After` the seconds left of the window.
 */
export function sourceLimited(retryAfterSeconds: number, limit?: Pick<SourceLimit, 'tooMany'>): ApiError {
  const error = new ApiError(429, `${limit?.tooMany ?? 'Too many requests from this address'}; retry after ${retryAfterSeconds} s`, 'RATE_LIMITED');
  error.headers = { 'Retry-After': String(retryAfterSeconds) };
  return error;
}

/**
 * Counts the request against each limit in order, and throws what `refusal` makes of the first that refuses it: a
 * request refused by one limit is not counted against those after it (a source past its own limit spends nothing of a
 * client's).
 */
export async function admitSource(limits: readonly (readonly [SourceLimit, string])[], refusal: (retryAfterSeconds: number, limit: SourceLimit) => Error = sourceLimited): Promise<void> {
  for (const [limit, source] of limits) {
    const admission = await countSourceRequest(limit, source);
    if (!admission.admitted) throw refusal(admission.retryAfterSeconds, limit);
  }
}

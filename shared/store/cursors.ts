import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { BadRequestError } from '../errors';
import type { PageSource } from './query-page';

let key: KeyObject | undefined;

/**
 * CURSOR_SECRET signs cursors; read on first use, so a process that never lists (the admin CLI) needs none. Kept
 * as a KeyObject: an HMAC keyed with raw bytes imports them again on every call.
 */
function signingKey(): KeyObject {
  if (key) return key;
  const secret = process.env.CURSOR_SECRET;
  if (!secret || secret.length < 16) throw new Error('Missing required environment variable CURSOR_SECRET (16 characters or more)');
  return (key = createSecretKey(Buffer.from(secret)));
}

/** A key range as a cursor is bound to it: without a moving start, and with a moving end as the end it stands for. */
function rangeOf({ skBetween, movingStart, openEnd }: PageSource): string[] {
  if (!skBetween) return [];
  const range = [skBetween[0], openEnd ?? skBetween[1]];
  return movingStart ? range.slice(1) : range;
}

/** The list a cursor belongs to: its index, partition (which starts with the organization) and key range (see rangeOf). */
const listOf = (source: PageSource) =>
  createHash('sha256')
    .update(JSON.stringify([source.index ?? '', source.pk, source.skPrefix ?? '', rangeOf(source), source.ascending ?? false]))
    .digest('base64url')
    .slice(0, 22);

const sign = (payload: string) => createHmac('sha256', signingKey()).update(payload).digest('base64url');

const invalid = () => new BadRequestError('cursor: not a cursor of this list; pass the nextCursor of a previous answer with the same filters', 'INVALID_CURSOR', [{ path: 'cursor', message: 'cursor is not a cursor of this list' }]);

/** An opaque, signed position in one list: where DynamoDB stopped, bound to the list (and so to the organization). */
export function encodeCursor(source: PageSource, lastKey: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify({ l: listOf(source), k: lastKey })).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

/** The position a cursor holds; 400 for a cursor altered, of another list or of another organization. */
export function decodeCursor(source: PageSource, cursor: string): Record<string, unknown> {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length) throw invalid();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const { l, k } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { l: string; k: Record<string, unknown> };
  if (l !== listOf(source) || typeof k !== 'object' || k === null) throw invalid();
  return k;
}

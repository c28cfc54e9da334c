import { createHash, createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { BadRequestError } from '../errors';
import { keyringFromEnvironment, type CursorKeyring } from './cursor-keys';
import type { PageSource } from './query-page';

let keyring: CursorKeyring | undefined;
/** The signing keys (./cursor-keys.ts), named by the environment on first use: a process that never lists (the admin CLI) needs none. */
const keys = () => (keyring ??= keyringFromEnvironment());

/** A key range as a cursor is bound to it: without a moving start, and with a moving end as the end it stands for. */
function rangeOf({ skBetween, movingStart, openEnd }: PageSource): string[] {
  if (!skBetween) return [];
  const range = [skBetween[0], openEnd ?? skBetween[1]];
  return movingStart ? range.slice(1) : range;
}

/** The list a cursor belongs to: its index, partition (which starts with the organization), key range (see rangeOf) and filter. */
const listOf = (source: PageSource) =>
  createHash('sha256')
    .update(JSON.stringify([source.index ?? '', source.pk, source.skPrefix ?? '', rangeOf(source), source.ascending ?? false, ...(source.where ? [source.where] : [])]))
    .digest('base64url')
    .slice(0, 22);

const sign = (key: KeyObject, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

const invalid = () => new BadRequestError('cursor: not a cursor of this list; pass the nextCursor of a previous answer with the same filters', 'INVALID_CURSOR', [{ path: 'cursor', message: 'cursor is not a cursor of this list' }]);

/** An opaque, signed position in one list: where DynamoDB stopped, bound to the list (and so to the organization). */
export async function encodeCursor(source: PageSource, lastKey: Record<string, unknown>): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ l: listOf(source), k: lastKey })).toString('base64url');
  return `${payload}.${sign(await keys().signingKey(), payload)}`;
}

/** The position a cursor holds; 400 for a cursor altered, of another list or of another organization. */
export async function decodeCursor(source: PageSource, cursor: string): Promise<Record<string, unknown>> {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length) throw invalid();
  const given = Buffer.from(signature);
  const signedWith = (key: KeyObject) => {
    const expected = Buffer.from(sign(key, payload));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (!(await keys().verify(signedWith))) throw invalid();
  const { l, k } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { l: string; k: Record<string, unknown> };
  if (l !== listOf(source) || typeof k !== 'object' || k === null) throw invalid();
  return k;
}

import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { TTL_ATTRIBUTE } from '#shared/table';
import { admitSource, countSourceRequest, sourceKeyOf, sourceLimited, sourceLimitKeys, sourceOfAddress, type SourceLimit } from '#shared/limits/per-source';
import { useTestApi } from './support/api';

const api = useTestApi({ clock: 'manual' });

const MINUTE = 60_000;
let named = 0;
/** A limit of its own for each test, so no test counts another's requests. */
const limitOf = (limit: number, windowSeconds = 60): SourceLimit => ({ name: `test-${++named}`, limit, windowSeconds });

/** Moves the manual clock to `offsetMs` into the next window of `windowMs`; answers that window's start. */
async function intoNextWindow(windowMs: number, offsetMs: number): Promise<number> {
  const start = (Math.floor(api.clock.now() / windowMs) + 1) * windowMs;
  await api.clock.advanceTo(start + offsetMs);
  return start;
}

const itemOf = async (limit: SourceLimit, source: string, windowStart: number) =>
  (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: sourceLimitKeys.sourceWindow(limit.name, sourceKeyOf(source), windowStart), ConsistentRead: true }))).Item;

describe('a per-source limit', () => {
  it('admits exactly the limit in a window, refuses the next until the window ends, and names the first refusal once', async () => {
    const limit = limitOf(3);
    const start = await intoNextWindow(MINUTE, 20_500);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await countSourceRequest(limit, '192.0.2.1'));
    // 39.5 s are left of the minute: Retry-After rounds up, so the caller never comes back early.
    const refused = { admitted: false, retryAfterSeconds: 40 };
    expect(answers).toEqual([{ admitted: true }, { admitted: true }, { admitted: true }, { ...refused, first: true }, { ...refused, first: false }, { ...refused, first: false }]);
    // The refusals after the first wrote nothing: the count stays one past the limit, and the item ends with its window.
    expect(await itemOf(limit, '192.0.2.1', start)).toMatchObject({ count: 4, [TTL_ATTRIBUTE]: (start + MINUTE) / 1000 });
  });

  it('refuses up to the last millisecond of its window and admits again from the first of the next', async () => {
    const limit = limitOf(1);
    const start = await intoNextWindow(MINUTE, 0);
    expect(await countSourceRequest(limit, '192.0.2.2')).toEqual({ admitted: true });
    await api.clock.advanceTo(start + MINUTE - 1);
    expect(await countSourceRequest(limit, '192.0.2.2')).toEqual({ admitted: false, retryAfterSeconds: 1, first: true });
    await api.clock.advanceTo(start + MINUTE);
    expect(await countSourceRequest(limit, '192.0.2.2')).toEqual({ admitted: true });
    expect(await countSourceRequest(limit, '192.0.2.2')).toEqual({ admitted: false, retryAfterSeconds: 60, first: true });
  });

  it('windows by its own length: an hour’s limit still refuses a minute later', async () => {
    const limit = limitOf(1, 3600);
    const start = await intoNextWindow(3_600_000, 0);
    expect(await countSourceRequest(limit, '192.0.2.3')).toEqual({ admitted: true });
    await api.clock.advanceTo(start + 2 * MINUTE);
    expect(await countSourceRequest(limit, '192.0.2.3')).toEqual({ admitted: false, retryAfterSeconds: 3480, first: true });
    expect(await itemOf(limit, '192.0.2.3', start)).toMatchObject({ [TTL_ATTRIBUTE]: (start + 3_600_000) / 1000 });
  });

  it('never admits more than the limit of requests sent at once, and names one of them the first refusal', async () => {
    const limit = limitOf(5);
    await intoNextWindow(MINUTE, 1000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => countSourceRequest(limit, '192.0.2.4')));
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(5);
    expect(answers.filter((answer) => !answer.admitted && answer.first)).toHaveLength(1);
  });

  it('counts each source, and each limit, apart: an address that starts with another is another', async () => {
    const [limit, other] = [limitOf(1), limitOf(1)];
    await intoNextWindow(MINUTE, 1000);
    expect(await countSourceRequest(limit, '127.0.0.1')).toEqual({ admitted: true });
    expect(await countSourceRequest(limit, '127.0.0.12')).toEqual({ admitted: true });
    expect(await countSourceRequest(limit, '127.0.0.1')).toMatchObject({ admitted: false });
    expect(await countSourceRequest(other, '127.0.0.1')).toEqual({ admitted: true });
    expect(await countSourceRequest(limit, '127.0.0.12')).toMatchObject({ admitted: false });
  });

  it('passes on a store failure as it is, never as a refusal: a source is refused only by its own count', async () => {
    // A partition key over DynamoDB's 2 048 bytes: the store refuses the write itself (ValidationException).
    const unwritable: SourceLimit = { name: 'x'.repeat(2100), limit: 5, windowSeconds: 60 };
    await expect(countSourceRequest(unwritable, '192.0.2.1')).rejects.toMatchObject({ name: 'ValidationException' });
  });
});

describe('admitting a request against several limits', () => {
  it('throws the refusal of the first limit that refuses, and counts nothing against the limits after it', async () => {
    const [address, client] = [limitOf(1), limitOf(2)];
    const start = await intoNextWindow(MINUTE, 30_000);
    await admitSource([[address, '192.0.2.5'], [client, 'client_a']]);
    const refusal = await admitSource([[address, '192.0.2.5'], [client, 'client_a']]).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, code: 'RATE_LIMITED', headers: { 'Retry-After': '30' }, message: 'Too many requests from this address; retry after 30 s' });
    expect(await itemOf(client, 'client_a', start)).toMatchObject({ count: 1 });
    // Another address still has the client's second request.
    await admitSource([[address, '192.0.2.6'], [client, 'client_a']]);
    const own = await admitSource([[address, '192.0.2.7'], [client, 'client_a']], (seconds) => new Error(`own ${seconds}`)).catch((error: unknown) => error);
    expect(own).toEqual(new Error('own 30'));
  });

  it('answers the API’s envelope refusal: 429 RATE_LIMITED with Retry-After', () => {
    expect(sourceLimited(7)).toMatchObject({ status: 429, code: 'RATE_LIMITED', headers: { 'Retry-After': '7' } });
  });
});

describe('the source an address counts as', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:0201', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['1:2:3:4:5:6:7::', '1:2:3:4::/64'],
    ['0:0:0:0:0:1:c000:201', '0:0:0:0::/64'],
    // A mapped address with every part of its dotted tail over one digit, and with its leading zero groups written out.
    ['::ffff:198.51.100.200', '198.51.100.200'],
    ['0:0::ffff:198.51.100.200', '198.51.100.200'],
    ['0:0:0:0:0:ffff:10.20.30.40', '10.20.30.40'],
    // Near misses of a mapped address: a group before ffff that is not zero, or ffff elsewhere, is an IPv6 address of its own.
    ['1::ffff:192.0.2.1', '1:0:0:0::/64'],
    ['2001:db8:0:0:0:ffff:192.0.2.1', '2001:db8:0:0::/64'],
    ['::ffff:0:192.0.2.1', '0:0:0:0::/64'],
    ['not an address', 'unknown'],
    ['', 'unknown'],
    [undefined, 'unknown'],
  ])('%s counts as %s', (address, source) => {
    expect(sourceOfAddress(address)).toBe(source);
  });

  it('keys a short plain source as it is, and anything else by its SHA-256', () => {
    expect(sourceKeyOf('2001:db8:1:2::/64')).toBe('2001:db8:1:2::/64');
    expect(sourceKeyOf('client_01J0000000000000000000000')).toBe('client_01J0000000000000000000000');
    expect(sourceKeyOf('a'.repeat(64))).toBe('a'.repeat(64));
    expect(sourceKeyOf('a'.repeat(65))).toBe('sha256:Y1NhxIu56rFBmOduqKt_GkFoXWrWKqkUbTAdTxfrCuA');
    expect(sourceKeyOf('https://app.example.com/oauth/client.json')).toBe('https://app.example.com/oauth/client.json');
    expect(sourceKeyOf(`https://app.example.com/${'x'.repeat(2000)}`)).toMatch(/^sha256:[\w-]{43}$/);
    expect(sourceKeyOf('a#b')).toMatch(/^sha256:/);
    expect(sourceKeyOf('')).toMatch(/^sha256:/);
    expect(sourceKeyOf('x a')).not.toBe(sourceKeyOf('x b'));
  });
});

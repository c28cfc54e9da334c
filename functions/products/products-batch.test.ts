import { afterEach, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { productKeys } from './entity';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { createProduct, fixedProduct, storedProduct } from '../../test/support/fixtures';

const api = useTestApi();

/** An organization with three products: Blocked drain clear and Tap washer replacement at FIXED prices, Toilet repair at a RANGE. */
async function setup() {
  const org = await api.organization();
  const [drain, tap, toilet] = [
    await createProduct(org.client, fixedProduct('Blocked drain clear', 220)),
    await createProduct(org.client, fixedProduct('Tap washer replacement', 95)),
    await createProduct(org.client, { name: 'Toilet repair', tradeCategoryId: 1, pricingType: 'RANGE', minPrice: 150, maxPrice: 400 }),
  ];
  return { ...org, drain, tap, toilet };
}

const batch = (client: Client, updates: unknown) => client.patch('/v1/products/batch', { updates });

describe('PATCH /v1/products/batch', () => {
  it('renames and re-prices, answering each item in input order with its updated product', async () => {
    const { client, drain, tap, toilet } = await setup();
    const res = await batch(client, [
      { id: toilet.id, pricing: { pricingType: 'RANGE', minPrice: 180, maxPrice: 450, isDisclosePrice: true } },
      { id: drain.id, name: 'Blocked drain clear (CCTV)' },
      { id: tap.id, name: 'Tap service', pricing: { pricingType: 'NONE' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { id: toilet.id, status: 'ok', product: { ...toilet, minPrice: 180, maxPrice: 450, isDisclosePrice: true, updatedAt: expect.any(String) } },
        { id: drain.id, status: 'ok', product: { ...drain, name: 'Blocked drain clear (CCTV)', updatedAt: expect.any(String) } },
        { id: tap.id, status: 'ok', product: { ...tap, name: 'Tap service', pricingType: 'NONE', price: null, minPrice: null, maxPrice: null, updatedAt: expect.any(String) } },
      ],
      summary: { total: 3, succeeded: 3, failed: 0, unknown: 0 },
    });
  });

  it('reports a not-found, a conflict and malformed items in place among successes, and counts them', async () => {
    const { client, drain, tap, toilet } = await setup();
    const res = await batch(client, [
      { id: drain.id, pricing: { pricingType: 'FIXED', price: 240 } },
      { id: 9999, name: 'Ghost product' },
      { id: tap.id, name: 'toilet REPAIR' },
      { id: tap.id, name: 42 },
      { id: 'seven', name: 'Bad id' },
      { id: toilet.id },
      { id: toilet.id, pricing: { pricingType: 'RANGE', minPrice: 500, maxPrice: 100 } },
      { name: 'No id at all' },
      { id: toilet.id, name: 'Extra', colour: 'red' },
      { id: tap.id, pricing: { pricingType: 'FIXED', price: 99 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: drain.id, status: 'ok', product: expect.objectContaining({ id: drain.id, price: 240 }) },
      { id: 9999, status: 'error', code: 'NOT_FOUND', message: 'Trade product not found' },
      { id: tap.id, status: 'error', code: 'CONFLICT', message: 'A product named "toilet REPAIR" already exists' },
      { id: tap.id, status: 'error', code: 'VALIDATION_ERROR', message: 'name must be a string' },
      { id: null, status: 'error', code: 'VALIDATION_ERROR', message: 'id must be an integer' },
      { id: toilet.id, status: 'error', code: 'VALIDATION_ERROR', message: 'each update must change name or pricing' },
      { id: toilet.id, status: 'error', code: 'VALIDATION_ERROR', message: 'pricing.maxPrice must be greater than or equal to pricing.minPrice' },
      { id: null, status: 'error', code: 'VALIDATION_ERROR', message: 'id is required' },
      { id: toilet.id, status: 'error', code: 'VALIDATION_ERROR', message: 'colour is not a known field' },
      { id: tap.id, status: 'ok', product: expect.objectContaining({ id: tap.id, name: 'Tap washer replacement', price: 99 }) },
    ]);
    expect(res.body.summary).toEqual({ total: 10, succeeded: 2, failed: 8, unknown: 0 });
  });

  it.each([
    ['FIXED without a price', { pricingType: 'FIXED' }, 'NONE', 'pricing.price is required when pricingType is FIXED'],
    ['FIXED with a maxPrice', { pricingType: 'FIXED', price: 10, maxPrice: 20 }, 'FIXED', 'pricing.maxPrice must not be set when pricingType is FIXED'],
    ['RANGE without a maxPrice', { pricingType: 'RANGE', minPrice: 10 }, 'FIXED', 'pricing.maxPrice is required when pricingType is RANGE'],
    ['NONE with a price', { pricingType: 'NONE', price: 10 }, 'FIXED', 'pricing.price must not be set when pricingType is NONE'],
    ['an unknown pricingType', { pricingType: 'HOURLY', price: 10 }, 'FIXED', 'pricingType must be one of NONE, FIXED, RANGE'],
    ['an unknown pricing field', { pricingType: 'FIXED', price: 10, currency: 'AUD' }, 'FIXED', 'pricing.currency'],
  ])('fails only the item for pricing %s', async (_, pricing, initialType, message) => {
    const { client, organizationId } = await api.organization();
    const product = await createProduct(client, initialType === 'NONE' ? { name: 'Gutter clean', tradeCategoryId: 1, pricingType: 'NONE' } : fixedProduct('Gutter clean', 300));
    const res = await batch(client, [{ id: product.id, pricing }, { id: product.id, name: 'Gutter clean and flush' }]);
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ status: 'error', code: 'VALIDATION_ERROR' });
    expect(res.body.results[0].message).toContain(message);
    expect(res.body.results[1]).toMatchObject({ status: 'ok' });
    expect(await storedProduct(organizationId, product.id)).toMatchObject({ name: 'Gutter clean and flush', pricingType: initialType });
  });

  it('keeps earlier successes when a later item fails', async () => {
    const { client, organizationId, drain, tap } = await setup();
    const res = await batch(client, [
      { id: drain.id, name: 'Drain unblock' },
      { id: tap.id, name: 'Drain unblock' },
    ]);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['ok', 'error']);
    expect(await storedProduct(organizationId, drain.id)).toMatchObject({ name: 'Drain unblock' });
    expect(await storedProduct(organizationId, tap.id)).toEqual(tap);
  });

  it('applies a second item for the same id on top of the first', async () => {
    const { client, organizationId, drain } = await setup();
    const res = await batch(client, [
      { id: drain.id, name: 'Drain unblock' },
      { id: drain.id, pricing: { pricingType: 'RANGE', minPrice: 200, maxPrice: 600 } },
      { id: drain.id, name: 'Drain unblock and camera' },
    ]);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(res.body.results[1].product).toMatchObject({ name: 'Drain unblock', pricingType: 'RANGE', price: null, minPrice: 200, maxPrice: 600 });
    expect(res.body.results[2].product).toMatchObject({ name: 'Drain unblock and camera', pricingType: 'RANGE', price: null, minPrice: 200, maxPrice: 600 });
    expect(await storedProduct(organizationId, drain.id)).toEqual(res.body.results[2].product);
    // Both earlier names are free again; only the last one is held.
    expect((await client.post('/v1/products', { name: 'Blocked drain clear', tradeCategoryId: 1, pricingType: 'NONE' })).status).toBe(201);
    expect((await client.post('/v1/products', { name: 'Drain unblock', tradeCategoryId: 1, pricingType: 'NONE' })).status).toBe(201);
    expect((await client.post('/v1/products', { name: 'drain unblock and camera', tradeCategoryId: 1, pricingType: 'NONE' })).status).toBe(409);
  });

  it('lets a later item take a name an earlier item gave up', async () => {
    const { client, drain, tap } = await setup();
    const res = await batch(client, [
      { id: drain.id, name: 'Old drain service' },
      { id: tap.id, name: 'Blocked drain clear' },
    ]);
    expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0, unknown: 0 });
  });

  it("answers NOT_FOUND for another organization's product and leaves it unchanged", async () => {
    const owner = await setup();
    const other = await api.organization();
    const res = await batch(other.client, [{ id: owner.drain.id, name: 'Hijacked', pricing: { pricingType: 'NONE' } }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [{ id: owner.drain.id, status: 'error', code: 'NOT_FOUND', message: 'Trade product not found' }],
      summary: { total: 1, succeeded: 0, failed: 1, unknown: 0 },
    });
    expect(await storedProduct(owner.organizationId, owner.drain.id)).toEqual(owner.drain);
  });

  it('accepts exactly 100 items and applies them in order', async () => {
    const { client, organizationId, drain, tap, toilet } = await setup();
    const ids = [drain.id, tap.id, toilet.id];
    const updates = Array.from({ length: 100 }, (_, i) => ({ id: ids[i % 3], pricing: { pricingType: 'FIXED', price: i } }));
    const res = await batch(client, updates);
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ total: 100, succeeded: 100, failed: 0, unknown: 0 });
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual(updates.map((u) => u.id));
    expect((await storedProduct(organizationId, drain.id))?.price).toBe(99);
    expect((await storedProduct(organizationId, tap.id))?.price).toBe(97);
    expect((await storedProduct(organizationId, toilet.id))?.price).toBe(98);
  });

  it('rejects 101 items as a whole with BATCH_TOO_LARGE and applies nothing', async () => {
    const { client, organizationId, drain } = await setup();
    const updates = Array.from({ length: 101 }, (_, i) => ({ id: drain.id, name: `Drain ${i}` }));
    let res: Awaited<ReturnType<typeof batch>> | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await batch(client, updates);
    });
    expect(res!.status).toBe(400);
    expect(res!.body).toEqual({
      success: false,
      message: 'The batch exceeds 100 items (101 given); nothing was applied',
      error: { status: 400, message: 'The batch exceeds 100 items (101 given); nothing was applied', code: 'BATCH_TOO_LARGE' },
    });
    expect(calls).toEqual([]);
    expect(await storedProduct(organizationId, drain.id)).toEqual(drain);
  });

  it.each([
    ['no items', { updates: [] }, 'updates must contain at least one item'],
    ['updates that is not an array', { updates: { id: 1 } }, 'updates must be an array'],
    ['a missing updates', {}, 'updates'],
    ['a body that is an array', [{ id: 1, name: 'x' }], 'body must be a JSON object'],
    ['a body that is a string', 'updates', 'body'],
    ['an unknown top-level field', { updates: [{ id: 1, name: 'x' }], dryRun: true }, 'dryRun'],
  ])('answers 400 for %s', async (_, body, message) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/products/batch', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.message).toContain(message);
  });

  it('costs one BatchGetItem for all products plus one write per item: a Put, or a transaction for a rename', async () => {
    const { client, drain, tap, toilet } = await setup();
    const calls = await countDynamoCalls(() =>
      batch(client, [
        { id: drain.id, pricing: { pricingType: 'FIXED', price: 1 } },
        { id: tap.id, name: 'Tap service' },
        { id: toilet.id, pricing: { pricingType: 'NONE' } },
        { id: drain.id, pricing: { pricingType: 'FIXED', price: 2 } },
        { id: 777, name: 'Missing' },
        { id: drain.id, name: 42 },
      ]),
    );
    expect(calls).toEqual(['BatchGetItemCommand', 'PutItemCommand', 'TransactWriteItemsCommand', 'PutItemCommand', 'PutItemCommand']);
  });

  it('costs N + 1 calls for 100 re-pricing items', async () => {
    const { client, drain, tap, toilet } = await setup();
    const ids = [drain.id, tap.id, toilet.id];
    const updates = Array.from({ length: 100 }, (_, i) => ({ id: ids[i % 3], pricing: { pricingType: 'FIXED', price: i } }));
    const calls = await countDynamoCalls(() => batch(client, updates));
    expect(calls).toEqual(['BatchGetItemCommand', ...Array(100).fill('PutItemCommand')]);
  });
});

const TABLE_FAULT = 'productTableFault';

/**
 * The table fails to answer the calls `fault` picks, as a timeout or a lost connection leaves them: `after` sends the
 * call to the table first (it commits, only its answer is lost), `before` loses it on the way, `late` holds it on the
 * way (a store paused) and sends it when the test calls `arrive`.
 */
function tableFailsToAnswer(fault: (command: string, input: string) => 'after' | 'before' | 'late' | undefined, meanwhile?: () => Promise<unknown>) {
  const faults: string[] = [];
  const held: (() => Promise<unknown>)[] = [];
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      const when = fault(command, JSON.stringify(args.input));
      if (when === 'after') await next(args);
      // Its answer, whatever it is, reaches no one: the request that sent it gave up.
      if (when === 'late') held.push(() => next(args).catch(() => undefined));
      if (when) {
        faults.push(`${command} ${when}`);
        await meanwhile?.();
        throw Object.assign(new Error('Socket timed out without establishing a connection within 3000 ms'), { name: 'TimeoutError' });
      }
      return next(args);
    },
    { step: 'initialize', name: TABLE_FAULT },
  );
  // The items' faults are logged as errors: expected here, so kept out of the output.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // Not enumerable: the faults compare as the list they are.
  return Object.defineProperty(faults, 'arrive', { value: () => Promise.all(held.splice(0).map((send) => send())) }) as string[] & { arrive: () => Promise<unknown> };
}

/** The first `times` of the calls `command` makes whose input holds `text`. */
const once = (command: string, text: string, times = 1) => {
  let left = times;
  return (sent: string, input: string) => sent === command && input.includes(text) && left-- > 0;
};

describe('PATCH /v1/products/batch when the table fails to answer a write', () => {
  afterEach(() => {
    dynamo.middlewareStack.remove(TABLE_FAULT);
    vi.restoreAllMocks();
  });

  it('reports a re-pricing that committed before its answer was lost as applied, read again, and goes on with the next item', async () => {
    const { client, organizationId, drain, tap } = await setup();
    const put = once('PutItemCommand', '"price":245');
    const faults = tableFailsToAnswer((command, input) => (put(command, input) ? 'after' : undefined));
    const res = await batch(client, [
      { id: drain.id, pricing: { pricingType: 'FIXED', price: 245 } },
      { id: tap.id, pricing: { pricingType: 'FIXED', price: 110 } },
    ]);
    expect(faults).toEqual(['PutItemCommand after']);
    expect(res.status).toBe(200);
    const stored = await storedProduct(organizationId, drain.id);
    expect(stored).toMatchObject({ price: 245 });
    expect(res.body).toEqual({
      results: [
        { id: drain.id, status: 'ok', product: stored },
        { id: tap.id, status: 'ok', product: expect.objectContaining({ price: 110 }) },
      ],
      summary: { total: 2, succeeded: 2, failed: 0, unknown: 0 },
    });
  });

  it('reports a rename whose transaction committed before its answer was lost as applied, and the new name as taken', async () => {
    const { client, organizationId, drain } = await setup();
    const rename = once('TransactWriteItemsCommand', 'Drain jetting');
    tableFailsToAnswer((command, input) => (rename(command, input) ? 'after' : undefined));
    const res = await batch(client, [{ id: drain.id, name: 'Drain jetting' }]);
    expect(res.body.results).toEqual([{ id: drain.id, status: 'ok', product: await storedProduct(organizationId, drain.id) }]);
    expect(res.body.results[0].product.name).toBe('Drain jetting');
    expect((await client.post('/v1/products', fixedProduct('Drain jetting'))).status).toBe(409);
  });

  it('sends a write lost before it reached the table again, on the same condition, and reports it applied', async () => {
    const { client, organizationId, drain, tap } = await setup();
    const put = once('PutItemCommand', '"price":245');
    const faults = tableFailsToAnswer((command, input) => (put(command, input) ? 'before' : undefined));
    const res = await batch(client, [
      { id: drain.id, pricing: { pricingType: 'FIXED', price: 245 } },
      { id: tap.id, pricing: { pricingType: 'FIXED', price: 110 } },
    ]);
    expect(faults).toEqual(['PutItemCommand before']);
    const stored = await storedProduct(organizationId, drain.id);
    expect(stored).toMatchObject({ price: 245 });
    expect(res.body.results[0]).toEqual({ id: drain.id, status: 'ok', product: stored });
    expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0, unknown: 0 });
  });

  it('reports what happened to a write held on its way while the store paused, which arrives after the batch gave up on it: applied once', async () => {
    const { client, organizationId, drain, tap } = await setup();
    const put = once('PutItemCommand', '"price":245');
    const faults = tableFailsToAnswer((command, input) => (put(command, input) ? 'late' : undefined));
    const versionOf = async (id: number) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: productKeys.product(organizationId, id), ConsistentRead: true }))).Item?.version as number;
    const before = [await versionOf(drain.id), await versionOf(tap.id)];
    const res = await batch(client, [
      { id: drain.id, pricing: { pricingType: 'FIXED', price: 245 } },
      { id: tap.id, pricing: { pricingType: 'FIXED', price: 110 } },
    ]);
    expect(faults).toEqual(['PutItemCommand late']);
    await faults.arrive();
    // The late write found the version it was conditional on gone: each product is as the batch reported it, written once.
    const stored = [await storedProduct(organizationId, drain.id), await storedProduct(organizationId, tap.id)];
    expect(res.body.results).toEqual([
      { id: drain.id, status: 'ok', product: stored[0] },
      { id: tap.id, status: 'ok', product: stored[1] },
    ]);
    expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0, unknown: 0 });
    expect(stored.map((product) => product?.price)).toEqual([245, 110]);
    expect([await versionOf(drain.id), await versionOf(tap.id)]).toEqual([before[0]! + 1, before[1]! + 1]);
  });

  it('reports a lost write as not applied when another request wrote the product meanwhile, keeping that request’s change', async () => {
    const { client, organizationId, drain } = await setup();
    const put = once('PutItemCommand', '"price":245');
    // While the batch waits for its answer, a PUT of the same product commits the version the batch's write would have made.
    tableFailsToAnswer(
      (command, input) => (put(command, input) ? 'before' : undefined),
      () => client.put(`/v1/products/${drain.id}`, { price: 300 }),
    );
    const res = await batch(client, [{ id: drain.id, pricing: { pricingType: 'FIXED', price: 245 } }]);
    expect(res.body.results).toEqual([{ id: drain.id, status: 'error', code: 'UNAVAILABLE', message: expect.stringContaining('was not applied') }]);
    expect((await storedProduct(organizationId, drain.id))?.price).toBe(300);
  });

  it.each([
    ['committed', 'after'],
    ['lost on the way', 'before'],
  ] as const)('reports a write %s, sent again unanswered or refused, whose product cannot be read again as UNKNOWN, never INTERNAL_ERROR', async (_, when) => {
    const { client, organizationId, drain, tap } = await setup();
    // The write and the same write sent again: one committed is refused the second time; one lost is lost again.
    const put = once('PutItemCommand', '"price":245', 2);
    const reread = once('GetItemCommand', `PRODUCT#`);
    const faults = tableFailsToAnswer((command, input) => (put(command, input) ? when : reread(command, input) ? 'before' : undefined));
    const res = await batch(client, [
      { id: drain.id, pricing: { pricingType: 'FIXED', price: 245 } },
      { id: tap.id, pricing: { pricingType: 'FIXED', price: 110 } },
    ]);
    expect(faults).toEqual(when === 'after' ? ['PutItemCommand after', 'GetItemCommand before'] : ['PutItemCommand before', 'PutItemCommand before', 'GetItemCommand before']);
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({ id: drain.id, status: 'unknown', code: 'UNKNOWN', message: expect.stringContaining('read it before sending the item again') });
    expect(res.body.results[1]).toMatchObject({ id: tap.id, status: 'ok' });
    expect(res.body.summary).toEqual({ total: 2, succeeded: 1, failed: 0, unknown: 1 });
    expect((await storedProduct(organizationId, drain.id))?.price).toBe(when === 'after' ? 245 : 220);
  });
});

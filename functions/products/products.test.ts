import { describe, expect, it } from 'vitest';
import { useTestApi, type ApiResponse } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { insertProduct } from './store';
import { createProduct, fixedProduct, ISO_MS, storedProduct } from '../../test/support/fixtures';

const api = useTestApi();

const hotWater = {
  name: 'Hot water system install',
  description: 'Supply and install a gas or electric storage hot water system.',
  response: 'We install most brands; a plumber can usually come out within two days.',
  faqs: [{ question: 'Do you remove the old unit?', answer: 'Yes, removal and disposal are included.' }],
  tradeCategoryId: 1,
  pricingType: 'RANGE',
  minPrice: 1200,
  maxPrice: 3500,
  isDisclosePrice: true,
};

describe('POST /v1/products', () => {
  it('answers 201 with every Product field, a RANGE as minPrice and maxPrice with price null', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/products', hotWater);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      product: {
        id: 1,
        name: 'Hot water system install',
        description: hotWater.description,
        response: hotWater.response,
        tradeCategoryId: 1,
        pricingType: 'RANGE',
        price: null,
        minPrice: 1200,
        maxPrice: 3500,
        isDisclosePrice: true,
        faqs: hotWater.faqs,
        isActive: true,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      },
    });
    expect(res.body.product.updatedAt).toBe(res.body.product.createdAt);
  });

  it('stores a FIXED price with maxPrice null, and numbers ids per organization from 1', async () => {
    const { client } = await api.organization();
    await createProduct(client, hotWater);
    const product = await createProduct(client, { ...fixedProduct('Blocked drain clear', 220), faqs: [] });
    expect(product).toMatchObject({ id: 2, pricingType: 'FIXED', price: 220, maxPrice: null });
    const other = await api.organization();
    expect((await createProduct(other.client, fixedProduct('Blocked drain clear'))).id).toBe(1);
  });

  it('stores NONE with no price and fills the optional fields with their defaults', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, { name: '  Free quote ', tradeCategoryId: 12, pricingType: 'NONE' });
    expect(product).toMatchObject({
      name: 'Free quote',
      description: '',
      response: '',
      faqs: [],
      pricingType: 'NONE',
      price: null,
      maxPrice: null,
      isDisclosePrice: false,
      isActive: true,
    });
  });

  it.each([
    ['FIXED without price', { ...fixedProduct('A'), price: undefined }, 'price', 'price is required when pricingType is FIXED'],
    ['FIXED with maxPrice', { ...fixedProduct('A'), maxPrice: 300 }, 'maxPrice', 'maxPrice must not be set when pricingType is FIXED'],
    ['FIXED with minPrice', { ...fixedProduct('A'), minPrice: 100 }, 'minPrice', 'minPrice must not be set when pricingType is FIXED'],
    ['RANGE with minPrice above maxPrice', { ...hotWater, minPrice: 4000 }, 'maxPrice', 'maxPrice must be greater than or equal to minPrice'],
    ['RANGE without maxPrice', { ...hotWater, maxPrice: undefined }, 'maxPrice', 'maxPrice is required when pricingType is RANGE'],
    ['RANGE without minPrice', { ...hotWater, minPrice: undefined }, 'minPrice', 'minPrice is required when pricingType is RANGE'],
    ['RANGE with price', { ...hotWater, price: 1500 }, 'price', 'price must not be set when pricingType is RANGE'],
    ['NONE with a price', { name: 'A', tradeCategoryId: 1, pricingType: 'NONE', price: 10 }, 'price', 'price must not be set when pricingType is NONE'],
    ['NONE with a maxPrice', { name: 'A', tradeCategoryId: 1, pricingType: 'NONE', maxPrice: 10 }, 'maxPrice', 'maxPrice must not be set when pricingType is NONE'],
  ])('answers 400 for %s, naming the field', async (_, body, field, message) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/products', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      message,
      error: { status: 400, message, code: 'VALIDATION_ERROR', details: [{ path: field, message }] },
    });
  });

  it.each([
    ['a missing name', { tradeCategoryId: 1, pricingType: 'NONE' }, 'name'],
    ['a blank name', { ...fixedProduct('   ') }, 'name'],
    ['a name of the wrong type', { ...fixedProduct('A'), name: 42 }, 'name'],
    ['a missing pricingType', { name: 'A', tradeCategoryId: 1 }, 'pricingType'],
    ['an unknown pricingType', { ...fixedProduct('A'), pricingType: 'HOURLY' }, 'pricingType'],
    ['a negative price', { ...fixedProduct('A'), price: -1 }, 'price'],
    ['a price given as a string', { ...fixedProduct('A'), price: '180' }, 'price'],
    ['a tradeCategoryId outside the catalog', { ...fixedProduct('A'), tradeCategoryId: 99 }, 'tradeCategoryId'],
    ['a tradeCategoryId given as a string', { ...fixedProduct('A'), tradeCategoryId: '1' }, 'tradeCategoryId'],
    ['a missing tradeCategoryId', { name: 'A', pricingType: 'NONE' }, 'tradeCategoryId'],
    ['a faq without an answer', { ...fixedProduct('A'), faqs: [{ question: 'Why?' }] }, 'faqs.0.answer'],
    ['faqs that are not an array', { ...fixedProduct('A'), faqs: 'none' }, 'faqs'],
    ['isDisclosePrice that is not a boolean', { ...fixedProduct('A'), isDisclosePrice: 'yes' }, 'isDisclosePrice'],
    ['an unknown field', { ...fixedProduct('A'), colour: 'red' }, 'colour'],
  ])('answers 400 for %s, naming the field, without touching DynamoDB', async (_, body, field) => {
    const { client } = await api.organization();
    let res: ApiResponse | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.post('/v1/products', body);
    });
    expect(res!.status).toBe(400);
    expect(res!.body.error.code).toBe('VALIDATION_ERROR');
    expect(res!.body.error.details[0].path).toBe(field);
    expect(res!.body.message).toContain(field);
    expect(calls).toEqual([]);
  });

  it('takes an amount in whole cents and refuses a finer one, naming the field, where a tiny one used to fail in DynamoDB', async () => {
    const { client } = await api.organization();
    const cents = await client.post('/v1/products', { ...hotWater, name: 'Tap washer', minPrice: 19.99, maxPrice: 0.07 + 20 });
    expect(cents.status).toBe(201);
    expect(cents.body.product).toMatchObject({ minPrice: 19.99, maxPrice: 20.07 });
    for (const [field, amount] of [['minPrice', 19.999], ['maxPrice', 5e-324], ['minPrice', 1e-131]] as const) {
      const res = await client.post('/v1/products', { ...hotWater, name: `Priced at ${amount}`, [field]: amount });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: field, message: `${field} must have at most 2 decimal places` }]);
    }
    expect((await client.get('/v1/products')).body.totalCount).toBe(1);
  });

  it('answers 409 for a name that exists already, ignoring case and surrounding space', async () => {
    const { client } = await api.organization();
    await createProduct(client, hotWater);
    const res = await client.post('/v1/products', { ...fixedProduct('  hot WATER system install '), faqs: [] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      message: 'A product named "hot WATER system install" already exists',
      error: { status: 409, message: 'A product named "hot WATER system install" already exists', code: 'CONFLICT' },
    });
  });

  it('lets two organizations use the same product name', async () => {
    const mine = await api.organization();
    const theirs = await api.organization();
    await createProduct(mine.client, hotWater);
    expect((await theirs.client.post('/v1/products', hotWater)).status).toBe(201);
  });

  it('answers 413, not a 500, for text within every field bound but over the body limit, and writes nothing', async () => {
    const { client } = await api.organization();
    // Within every field's character bound, but three bytes a character: 750 KB.
    const faqs = Array.from({ length: 50 }, (_, i) => ({ question: `Question ${i}?`, answer: '漢'.repeat(5000) }));
    const res = await client.post('/v1/products', { ...fixedProduct('Huge FAQ product'), faqs });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const small = await createProduct(client, fixedProduct('Small FAQ product'));
    expect(small.id).toBe(1);
    const update = await client.put(`/v1/products/${small.id}`, { faqs });
    expect(update.status).toBe(413);
  });

  it('names a record over DynamoDB’s 400 KB item limit ITEM_TOO_LARGE (a 400), never a raw ValidationException', async () => {
    const { organizationId } = await api.organization();
    const faqs = Array.from({ length: 50 }, (_, i) => ({ question: `Question ${i}?`, answer: '漢'.repeat(5000) }));
    const at = new Date().toISOString();
    const product = { id: 1, name: 'Huge', description: '', response: '', tradeCategoryId: 1, pricingType: 'NONE' as const, price: null, minPrice: null, maxPrice: null, isDisclosePrice: false, faqs, isActive: true, createdAt: at, updatedAt: at };
    await expect(insertProduct(organizationId, product)).rejects.toMatchObject({ status: 400, code: 'ITEM_TOO_LARGE' });
  });

  it('costs one sequence update and one transaction', async () => {
    const { client } = await api.organization();
    const calls = await countDynamoCalls(() => client.post('/v1/products', hotWater));
    expect(calls).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
  });
});

describe('PUT /v1/products/{productId}', () => {
  it('changes only the fields sent and keeps the others', async () => {
    const { client } = await api.organization();
    const before = await createProduct(client, hotWater);
    const res = await client.put(`/v1/products/${before.id}`, { description: 'Now with free removal.', isActive: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      product: { ...before, description: 'Now with free removal.', isActive: false, updatedAt: expect.stringMatching(ISO_MS) },
    });
    expect(res.body.product.updatedAt >= before.updatedAt).toBe(true);
  });

  it('writes every writable field at once', async () => {
    const { client, organizationId } = await api.organization();
    const before = await createProduct(client, hotWater);
    const changes = {
      name: 'Heat pump install',
      description: 'Energy-efficient heat pump hot water.',
      response: 'Rebates may apply.',
      faqs: [],
      tradeCategoryId: 3,
      pricingType: 'FIXED',
      price: 4200,
      isDisclosePrice: false,
      isActive: false,
    };
    const res = await client.put(`/v1/products/${before.id}`, changes);
    expect(res.status).toBe(200);
    expect(res.body.product).toEqual({ ...before, ...changes, minPrice: null, maxPrice: null, updatedAt: res.body.product.updatedAt });
    expect(await storedProduct(organizationId, before.id)).toEqual(res.body.product);
  });

  describe('validates the merged pricing', () => {
    it('keeps the other end of a RANGE when only one end changes', async () => {
      const { client } = await api.organization();
      const { id } = await createProduct(client, hotWater);
      const res = await client.put(`/v1/products/${id}`, { minPrice: 1500 });
      expect(res.body.product).toMatchObject({ pricingType: 'RANGE', price: null, minPrice: 1500, maxPrice: 3500 });
    });

    it('answers 400 when the new maxPrice falls below the stored minimum', async () => {
      const { client, organizationId } = await api.organization();
      const before = await createProduct(client, hotWater);
      const res = await client.put(`/v1/products/${before.id}`, { maxPrice: 1000 });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('maxPrice must be greater than or equal to minPrice');
      expect(await storedProduct(organizationId, before.id)).toEqual(before);
    });

    it('keeps a FIXED price when only pricingType FIXED is repeated, and changes the price alone', async () => {
      const { client } = await api.organization();
      const { id } = await createProduct(client, fixedProduct('Blocked drain clear', 220));
      expect((await client.put(`/v1/products/${id}`, { pricingType: 'FIXED' })).body.product.price).toBe(220);
      expect((await client.put(`/v1/products/${id}`, { price: 250 })).body.product).toMatchObject({ pricingType: 'FIXED', price: 250, maxPrice: null });
    });

    it.each([
      ['switching to FIXED without a price', hotWater, { pricingType: 'FIXED' }, 'price is required when pricingType is FIXED'],
      ['switching to RANGE with only a maximum', fixedProduct('A'), { pricingType: 'RANGE', maxPrice: 500 }, 'minPrice is required when pricingType is RANGE'],
      ['a price on a RANGE product', hotWater, { price: 999 }, 'price must not be set when pricingType is RANGE'],
      ['a maxPrice on a FIXED product', fixedProduct('A'), { maxPrice: 999 }, 'maxPrice must not be set when pricingType is FIXED'],
      ['a price on a NONE product', { name: 'Free quote', tradeCategoryId: 1, pricingType: 'NONE' }, { price: 10 }, 'price must not be set when pricingType is NONE'],
    ])('answers 400 for %s', async (_, initial, changes, message) => {
      const { client } = await api.organization();
      const { id } = await createProduct(client, initial);
      const res = await client.put(`/v1/products/${id}`, changes);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    });

    it('drops the old prices when switching type', async () => {
      const { client } = await api.organization();
      const { id } = await createProduct(client, hotWater);
      expect((await client.put(`/v1/products/${id}`, { pricingType: 'NONE' })).body.product).toMatchObject({ pricingType: 'NONE', price: null, maxPrice: null });
      expect((await client.put(`/v1/products/${id}`, { pricingType: 'FIXED', price: 99 })).body.product).toMatchObject({ price: 99, maxPrice: null });
    });
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a read-only field', { createdAt: '2020-01-01T00:00:00.000Z' }, 'createdAt'],
    ['a name of the wrong type', { name: 7 }, 'name'],
    ['a blank name', { name: ' ' }, 'name'],
    ['an unknown pricingType', { pricingType: 'FREE' }, 'pricingType'],
    ['isActive that is not a boolean', { isActive: 'no' }, 'isActive'],
  ])('answers 400 for %s, naming it', async (_, body, field) => {
    const { client } = await api.organization();
    const { id } = await createProduct(client, hotWater);
    const res = await client.put(`/v1/products/${id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.message).toContain(field);
  });

  it.each(['abc', '1.5', '0', '-1'])('answers the product id %s as an unknown product: 404', async (productId) => {
    const { client } = await api.organization();
    const res = await client.put(`/v1/products/${productId}`, { isActive: false });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Trade product not found');
  });

  it('answers 404 for an unknown product', async () => {
    const { client } = await api.organization();
    const res = await client.put('/v1/products/4242', { isActive: false });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Trade product not found', error: { status: 404, message: 'Trade product not found', code: 'NOT_FOUND' } });
  });

  it("answers 404 for another organization's product and leaves it unchanged", async () => {
    const owner = await api.organization();
    const other = await api.organization();
    const product = await createProduct(owner.client, hotWater);
    const res = await other.client.put(`/v1/products/${product.id}`, { name: 'Taken over', isActive: false });
    expect(res.status).toBe(404);
    expect(await storedProduct(owner.organizationId, product.id)).toEqual(product);
  });

  describe('renames', () => {
    it('answers 409 for a name another product has, and changes nothing', async () => {
      const { client, organizationId } = await api.organization();
      await createProduct(client, hotWater);
      const drain = await createProduct(client, fixedProduct('Blocked drain clear'));
      const res = await client.put(`/v1/products/${drain.id}`, { name: 'HOT water system install', price: 1 });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(await storedProduct(organizationId, drain.id)).toEqual(drain);
    });

    it('allows a product to take its own name in different case', async () => {
      const { client } = await api.organization();
      const { id } = await createProduct(client, hotWater);
      const res = await client.put(`/v1/products/${id}`, { name: 'HOT WATER SYSTEM INSTALL' });
      expect(res.status).toBe(200);
      expect(res.body.product.name).toBe('HOT WATER SYSTEM INSTALL');
      expect((await client.post('/v1/products', { ...hotWater, name: 'hot water system install' })).status).toBe(409);
    });

    it('frees the old name for reuse and holds the new one', async () => {
      const { client } = await api.organization();
      const { id } = await createProduct(client, hotWater);
      expect((await client.put(`/v1/products/${id}`, { name: 'Heat pump install' })).status).toBe(200);
      expect((await client.post('/v1/products', hotWater)).status).toBe(201);
      expect((await client.post('/v1/products', { ...hotWater, name: 'heat pump install' })).status).toBe(409);
    });
  });

  it('costs one read and one conditional write, and one transaction instead for a rename', async () => {
    const { client } = await api.organization();
    const { id } = await createProduct(client, hotWater);
    expect(await countDynamoCalls(() => client.put(`/v1/products/${id}`, { isActive: false }))).toEqual(['GetItemCommand', 'PutItemCommand']);
    expect(await countDynamoCalls(() => client.put(`/v1/products/${id}`, { name: 'Renamed' }))).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  });

  it('loses no change when updates of the same product race', async () => {
    const { client, organizationId } = await api.organization();
    const { id } = await createProduct(client, hotWater);
    const responses = await Promise.all([
      client.put(`/v1/products/${id}`, { description: 'Raced description' }),
      client.put(`/v1/products/${id}`, { response: 'Raced response' }),
      client.put(`/v1/products/${id}`, { maxPrice: 9000 }),
    ]);
    expect(responses.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(await storedProduct(organizationId, id)).toMatchObject({ description: 'Raced description', response: 'Raced response', maxPrice: 9000 });
  });
});

describe('demo products', () => {
  it('come in every pricing type, hold their names, and take updates', async () => {
    const { client, organizationId, demo } = await api.organization({ demo: true });
    const ids = demo!.productIds as number[];
    const products = await Promise.all(ids.map((id) => storedProduct(organizationId, id)));
    expect(new Set(products.map((product) => product?.pricingType))).toEqual(new Set(['NONE', 'FIXED', 'RANGE']));
    expect((await client.post('/v1/products', { ...fixedProduct('blocked DRAIN clear') })).status).toBe(409);
    const res = await client.patch('/v1/products/batch', { updates: ids.map((id) => ({ id, pricing: { pricingType: 'NONE' } })) });
    expect(res.body.summary).toEqual({ total: ids.length, succeeded: ids.length, failed: 0, unknown: 0 });
  });
});

describe('GET /v1/products', () => {
  const catalog = [
    { ...fixedProduct('Blocked drain clear', 220), tradeCategoryId: 1 },
    { name: 'Free quote', tradeCategoryId: 12, pricingType: 'NONE' },
    { ...fixedProduct('Smoke alarm replacement', 129), tradeCategoryId: 2, isActive: false },
    { ...hotWater, tradeCategoryId: 1 },
    { ...fixedProduct('Tap washer', 90), tradeCategoryId: 1, isActive: false },
  ];

  it('lists products newest first with every field and an exact totalCount, in one Query', async () => {
    const { client } = await api.organization();
    const made = [];
    for (const body of catalog) made.push(await createProduct(client, body));
    let res: ApiResponse | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.get('/v1/products');
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ products: [...made].reverse(), totalPages: 1, currentPage: 1, totalCount: 5, nextCursor: null });
    // The catalog is read whole and filtered in the function: one call, whatever the filters.
    expect(calls).toEqual(['QueryCommand']);
    expect(await countDynamoCalls(() => client.get('/v1/products?tradeCategoryId=1&isActive=false&pricingType=FIXED'))).toEqual(['QueryCommand']);
  });

  it.each([
    ['tradeCategoryId=1', ['Tap washer', 'Hot water system install', 'Blocked drain clear']],
    ['isActive=false', ['Tap washer', 'Smoke alarm replacement']],
    ['isActive=true', ['Hot water system install', 'Free quote', 'Blocked drain clear']],
    ['pricingType=FIXED', ['Tap washer', 'Smoke alarm replacement', 'Blocked drain clear']],
    ['tradeCategoryId=1&isActive=false&pricingType=FIXED', ['Tap washer']],
    ['tradeCategoryId=1&pricingType=NONE', []],
  ])('filters by %s with an exact totalCount', async (query, names) => {
    const { client } = await api.organization();
    for (const body of catalog) await createProduct(client, body);
    const res = await client.get(`/v1/products?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.products.map((product: { name: string }) => product.name)).toEqual(names);
    expect(res.body).toMatchObject({ totalCount: names.length, totalPages: Math.ceil(names.length / 50), nextCursor: null });
  });

  it('pages a filtered list by page and by cursor, and a cursor belongs to its filters', async () => {
    const { client } = await api.organization();
    for (const body of catalog) await createProduct(client, body);
    const first = await client.get('/v1/products?tradeCategoryId=1&limit=2');
    expect(first.body).toMatchObject({ totalCount: 3, totalPages: 2, currentPage: 1 });
    expect(first.body.products.map((product: { name: string }) => product.name)).toEqual(['Tap washer', 'Hot water system install']);
    const next = await client.get(`/v1/products?tradeCategoryId=1&limit=2&cursor=${first.body.nextCursor}`);
    expect(next.body).toMatchObject({ totalCount: 3, nextCursor: null });
    expect(next.body.products.map((product: { name: string }) => product.name)).toEqual(['Blocked drain clear']);
    expect((await client.get('/v1/products?tradeCategoryId=1&limit=2&page=2')).body.products).toEqual(next.body.products);
    const otherFilter = await client.get(`/v1/products?tradeCategoryId=2&limit=2&cursor=${first.body.nextCursor}`);
    expect(otherFilter.status).toBe(400);
    expect(otherFilter.body.error.code).toBe('INVALID_CURSOR');
  });

  it.each([
    ['tradeCategoryId=99', 'tradeCategoryId'],
    ['tradeCategoryId=abc', 'tradeCategoryId'],
    ['isActive=yes', 'isActive'],
    ['pricingType=HOURLY', 'pricingType'],
    ['limit=101', 'limit'],
    ['name=Tap', 'name'],
  ])('answers 400 for %s, naming the field', async (query, field) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/products?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("lists none of another organization's products", async () => {
    await api.demoOrganization();
    const { client } = await api.organization();
    expect((await client.get('/v1/products')).body).toEqual({ products: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });
});

describe('GET /v1/products/{productId}', () => {
  it('answers the product as created, with one GetItem', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, hotWater);
    let res: ApiResponse | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.get(`/v1/products/${product.id}`);
    });
    expect(res!.body).toEqual({ product });
    expect(calls).toEqual(['GetItemCommand']);
  });

  it("answers 404 for an unknown product and for another organization's", async () => {
    const owner = await api.organization();
    const product = await createProduct(owner.client, hotWater);
    const { client } = await api.organization();
    for (const id of [product.id, 999]) {
      const res = await client.get(`/v1/products/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ status: 404, message: 'Trade product not found', code: 'NOT_FOUND' });
    }
  });
});

describe('DELETE /v1/products/{productId}', () => {
  it('removes the product and frees its name, reading it once and writing one transaction', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, hotWater);
    let res: ApiResponse | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.delete(`/v1/products/${product.id}`);
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ success: true, id: product.id });
    expect(calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect((await client.get(`/v1/products/${product.id}`)).status).toBe(404);
    expect((await client.get('/v1/products')).body.totalCount).toBe(0);
    expect((await client.delete(`/v1/products/${product.id}`)).status).toBe(404);
    expect((await client.put(`/v1/products/${product.id}`, { isActive: false })).status).toBe(404);
    // Its name is free: a new product takes it (ignoring case), with a new id.
    const again = await createProduct(client, { ...hotWater, name: 'HOT water system install' });
    expect(again.id).toBe(product.id + 1);
  });

  it('frees the name the product has after a rename, not the one it was created with', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, fixedProduct('Tap washer'));
    await client.put(`/v1/products/${product.id}`, { name: 'Tap washer replacement' });
    await client.delete(`/v1/products/${product.id}`);
    expect((await client.post('/v1/products', fixedProduct('Tap washer replacement'))).status).toBe(201);
    expect((await client.post('/v1/products', fixedProduct('Tap washer'))).status).toBe(201);
  });

  it('answers NOT_FOUND for a batch item naming a deleted product, and applies the others', async () => {
    const { client } = await api.organization();
    const gone = await createProduct(client, fixedProduct('Tap washer'));
    const kept = await createProduct(client, fixedProduct('Blocked drain clear'));
    await client.delete(`/v1/products/${gone.id}`);
    const res = await client.patch('/v1/products/batch', { updates: [{ id: gone.id, name: 'Back again' }, { id: kept.id, name: 'Drain clear' }] });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: gone.id, status: 'error', code: 'NOT_FOUND', message: 'Trade product not found' },
      { id: kept.id, status: 'ok', product: expect.objectContaining({ name: 'Drain clear' }) },
    ]);
    expect(res.body.summary).toEqual({ total: 2, succeeded: 1, failed: 1, unknown: 0 });
  });

  it("answers 404 for another organization's product and leaves it", async () => {
    const owner = await api.organization();
    const product = await createProduct(owner.client, hotWater);
    const { client } = await api.organization();
    expect((await client.delete(`/v1/products/${product.id}`)).status).toBe(404);
    expect((await owner.client.get(`/v1/products/${product.id}`)).body).toEqual({ product });
  });

  it('deletes once when two deletes race: one 200, one 404', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, hotWater);
    const statuses = (await Promise.all([client.delete(`/v1/products/${product.id}`), client.delete(`/v1/products/${product.id}`)])).map((res) => res.status);
    expect(statuses.sort()).toEqual([200, 404]);
  });
});

/** Free text with a NUL and a BEL in it: never part of text a person wrote. */
const WITH_CONTROL = 'Replaces the tap washer\u0000\u0007';

describe('the free-text rule on descriptions and receptionist texts', () => {
  it('refuses control characters in a product’s description and response, naming the field, and writes nothing', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, { name: 'Tap washer', tradeCategoryId: 1, pricingType: 'FIXED', price: 12 });
    for (const field of ['description', 'response']) {
      const create = await client.post('/v1/products', { name: `Valve ${field}`, tradeCategoryId: 1, pricingType: 'NONE', [field]: WITH_CONTROL });
      expect(create.status, `POST ${field}: ${JSON.stringify(create.body)}`).toBe(400);
      expect(create.body.error.details[0].path).toBe(field);
      const put = await client.put(`/v1/products/${product.id}`, { [field]: WITH_CONTROL });
      expect(put.status, `PUT ${field}: ${JSON.stringify(put.body)}`).toBe(400);
      expect(put.body.error.details[0].path).toBe(field);
    }
    expect((await client.get('/v1/products')).body.totalCount).toBe(1);
    expect((await client.get(`/v1/products/${product.id}`)).body.product).toMatchObject({ description: '', response: '' });
  });
});

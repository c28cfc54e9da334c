import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { productKeys } from './entity';
import { serviceKeys } from '../services/entity';
import { useTestApi, type Client } from '../../test/support/api';
import { createProduct, createService } from '../../test/support/fixtures';

const api = useTestApi();

/** The pricing fields a product and a service answer, under the same names. */
const PRODUCT_PRICING = ['pricingType', 'price', 'minPrice', 'maxPrice', 'isDisclosePrice'] as const;
const SERVICE_PRICING = ['pricingType', 'price', 'hourlyRate', 'callOutFee', 'minPrice', 'maxPrice', 'plusGST', 'plusMaterials', 'isDisclosePrice'] as const;

const pick = (record: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(fields.map((field) => [field, record[field]]));
const withoutUpdatedAt = ({ updatedAt: _, ...rest }: Record<string, unknown>) => rest;

const PRODUCTS = {
  NONE: { pricingType: 'NONE' },
  FIXED: { pricingType: 'FIXED', price: 180, isDisclosePrice: true },
  RANGE: { pricingType: 'RANGE', minPrice: 150, maxPrice: 400, isDisclosePrice: true },
} as const;

const SERVICES = {
  NONE: { pricingType: 'NONE' },
  FIXED: { pricingType: 'FIXED', price: 180, plusGST: true },
  HOURLY: { pricingType: 'HOURLY', hourlyRate: 95 },
  RANGE: { pricingType: 'RANGE', minPrice: 150, maxPrice: 400, isDisclosePrice: true },
  CALL_OUT: { pricingType: 'CALL_OUT', callOutFee: 89, plusMaterials: true },
} as const;

const newProduct = (client: Client, pricingType: keyof typeof PRODUCTS) => createProduct(client, { name: `Tap ${pricingType}`, tradeCategoryId: 1, ...PRODUCTS[pricingType] });
const newService = (client: Client, pricingType: keyof typeof SERVICES) =>
  createService(client, { name: `Drain ${pricingType}`, duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, ...SERVICES[pricingType] });

describe('a product’s pricing read is a pricing it takes', () => {
  it.each(Object.keys(PRODUCTS) as (keyof typeof PRODUCTS)[])('PUT of a %s product’s pricing fields as GET answers them changes nothing', async (pricingType) => {
    const { client } = await api.organization();
    const { id } = await newProduct(client, pricingType);
    const read = (await client.get(`/v1/products/${id}`)).body.product;
    const res = await client.put(`/v1/products/${id}`, pick(read, PRODUCT_PRICING));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(withoutUpdatedAt(res.body.product)).toEqual(withoutUpdatedAt(read));
  });

  it.each(Object.keys(PRODUCTS) as (keyof typeof PRODUCTS)[])('a batch item whose pricing is a %s product’s as GET answers it changes nothing', async (pricingType) => {
    const { client } = await api.organization();
    const { id } = await newProduct(client, pricingType);
    const read = (await client.get(`/v1/products/${id}`)).body.product;
    const res = await client.patch('/v1/products/batch', { updates: [{ id, pricing: pick(read, PRODUCT_PRICING) }] });
    expect(res.body.results[0]).toMatchObject({ status: 'ok' });
    expect(withoutUpdatedAt(res.body.results[0].product)).toEqual(withoutUpdatedAt(read));
  });

  it('answers a RANGE as minPrice and maxPrice, with price null, however the batch named its minimum', async () => {
    const { client } = await api.organization();
    const product = await newProduct(client, 'RANGE');
    expect(pick(product, PRODUCT_PRICING)).toEqual({ pricingType: 'RANGE', price: null, minPrice: 150, maxPrice: 400, isDisclosePrice: true });
    // The batch took a RANGE's minimum as `price` before it had `minPrice`: still read so.
    const older = await client.patch('/v1/products/batch', { updates: [{ id: product.id, pricing: { pricingType: 'RANGE', price: 120, maxPrice: 180 } }] });
    expect(older.body.results[0].product).toMatchObject({ price: null, minPrice: 120, maxPrice: 180 });
    const both = await client.patch('/v1/products/batch', { updates: [{ id: product.id, pricing: { pricingType: 'RANGE', price: 100, minPrice: 110 } }] });
    expect(both.body.results[0]).toMatchObject({ status: 'error', code: 'VALIDATION_ERROR', message: 'pricing.price must not be set when pricingType is RANGE' });
  });

  it('still refuses a price of another pricing type when it is not null', async () => {
    const { client } = await api.organization();
    const { id } = await newProduct(client, 'FIXED');
    const res = await client.put(`/v1/products/${id}`, { price: 200, minPrice: 100 });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('minPrice');
  });

  it('reads a RANGE product stored with its minimum in price under minPrice', async () => {
    const { client, organizationId } = await api.organization();
    const { id } = await newProduct(client, 'RANGE');
    const key = productKeys.product(organizationId, id);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key }));
    const { minPrice: _, ...older } = { ...Item!, price: 150 } as Record<string, unknown>;
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: older }));
    expect((await client.get(`/v1/products/${id}`)).body.product).toMatchObject({ price: null, minPrice: 150, maxPrice: 400 });
  });
});

describe('a service’s pricing uses the names a product does', () => {
  it.each(Object.keys(SERVICES) as (keyof typeof SERVICES)[])('PATCH of a %s service’s pricing fields as GET answers them changes nothing', async (pricingType) => {
    const { client } = await api.organization();
    const { id } = await newService(client, pricingType);
    const read = (await client.get(`/v1/services/${id}`)).body.service;
    const res = await client.patch(`/v1/services/${id}`, pick(read, SERVICE_PRICING));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(withoutUpdatedAt(res.body.service)).toEqual(withoutUpdatedAt(read));
  });

  it('answers FIXED and RANGE prices under the names and values a product answers them', async () => {
    const { client } = await api.organization();
    for (const pricingType of ['FIXED', 'RANGE'] as const) {
      const [product, service] = [await newProduct(client, pricingType), await newService(client, pricingType)];
      expect(pick(service, ['pricingType', 'price', 'minPrice', 'maxPrice'])).toEqual(pick(product, ['pricingType', 'price', 'minPrice', 'maxPrice']));
    }
  });

  it('takes the older names pricingMode and fixedPrice and answers them under pricingType and price', async () => {
    const { client } = await api.organization();
    const service = await createService(client, { name: 'Gas check', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingMode: 'FIXED', fixedPrice: 120 });
    expect(service).toMatchObject({ pricingType: 'FIXED', price: 120 });
    expect(service).not.toHaveProperty('pricingMode');
    expect(service).not.toHaveProperty('fixedPrice');
    const patched = await client.patch(`/v1/services/${service.id}`, { fixedPrice: 135 });
    expect(patched.body.service).toMatchObject({ pricingType: 'FIXED', price: 135 });
  });

  it('refuses a field sent under both its names, naming the older one, and writes nothing', async () => {
    const { client } = await api.organization();
    const base = { name: 'Gas check', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1 };
    const twice = await client.post('/v1/services', { ...base, pricingType: 'FIXED', pricingMode: 'FIXED', price: 120 });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details.map((d: { path: string }) => d.path)).toEqual(['pricingMode']);
    const { id } = await createService(client, { ...base, pricingType: 'FIXED', price: 120 });
    const patched = await client.patch(`/v1/services/${id}`, { price: 130, fixedPrice: 140 });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details.map((d: { path: string }) => d.path)).toEqual(['fixedPrice']);
    expect((await client.get(`/v1/services/${id}`)).body.service.price).toBe(120);
  });

  it('reads a service stored under pricingMode and fixedPrice under pricingType and price', async () => {
    const { client, organizationId } = await api.organization();
    const { id } = await newService(client, 'FIXED');
    const key = serviceKeys.service(organizationId, id);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key }));
    const { pricingType, price, ...rest } = Item!;
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...rest, pricingMode: pricingType, fixedPrice: price } }));
    expect((await client.get(`/v1/services/${id}`)).body.service).toMatchObject({ pricingType: 'FIXED', price: 180 });
  });
});

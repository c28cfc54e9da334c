import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { getProduct } from '../../functions/products/store';
import { getTransfer } from '../../functions/transfers/store';
import type { Client } from './api';

/** An ISO 8601 UTC timestamp with milliseconds, as the API writes every date. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** POSTs `body` to a collection and answers the created record (`key` of the body), failing the test unless it is 201. */
export async function created<T = any>(client: Client, path: string, key: string, body: unknown): Promise<T> {
  const res = await client.post(path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body[key] as T;
}

/** A new product, transfer rule or service, as the API answers it; the test fails unless it was created. */
export const createProduct = (client: Client, body: Record<string, unknown>) => created(client, '/v1/products', 'product', body);
export const createTransfer = (client: Client, body: Record<string, unknown>) => created(client, '/v1/transfers', 'transfer', body);
export const createService = (client: Client, body: Record<string, unknown>) => created(client, '/v1/services', 'service', body);

/** The smallest valid product: a name in the first trade category at a FIXED price. */
export const fixedProduct = (name: string, price = 180) => ({ name, tradeCategoryId: 1, pricingType: 'FIXED', price });

/** A product or transfer rule as stored, read past the API (neither has a GET endpoint). */
export const storedProduct = async (organizationId: string, id: number) => (await getProduct(organizationId, id))?.value;
export const storedTransfer = async (organizationId: string, id: number) => (await getTransfer(organizationId, id))?.value;

/**
 * Every item of one organization exactly as stored, in a stable order, to compare before and after —
 * but an API key's lastUsedAt, which the authorizer moves whenever the key is used. A Scan of this test
 * file's own table: fine for a test, never an access pattern of the API.
 */
export async function itemsOf(organizationId: string): Promise<string[]> {
  const items: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: config.tableName, ConsistentRead: true, ExclusiveStartKey: startKey }));
    for (const { lastUsedAt: _, ...item } of page.Items ?? []) {
      if (String(item.pk).startsWith(`ORG#${organizationId}`)) items.push(JSON.stringify(item, Object.keys(item).sort()));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort();
}

/** Lets the clock move on, so a change before a cut and one after it never share a millisecond. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A time between what happened before it and what happens after it (an `updatedSince` to poll from). */
export async function cut(): Promise<string> {
  await tick();
  const at = new Date().toISOString();
  await tick();
  return at;
}

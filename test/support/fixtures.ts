import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
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
 * but an API key's lastUsedAt, which the authorizer moves whenever the key is used, and the token of that write. A Scan of this test
 * file's own table: fine for a test, never an access pattern of the API.
 */
export async function itemsOf(organizationId: string): Promise<string[]> {
  const items: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: config.tableName, ConsistentRead: true, ExclusiveStartKey: startKey }));
    for (const stored of page.Items ?? []) {
      // The authorizer's touch of a key is a conditional write: it leaves its token too (shared/own-writes.ts).
      const { lastUsedAt: _, writeToken: _token, ...key } = stored;
      const item = stored.entity === 'API_KEY' ? key : stored;
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

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A query string of these parameters, each written as text. */
export const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)])).toString();

/** Business hours with the same periods every day of the week. */
export const everyDay = (periods: { open: string; close: string }[]) =>
  Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, periods]));

/** The UTC date `offsetDays` from now, as YYYY-MM-DD. */
export const utcDate = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The lead as GET /v1/leads/{leadId} answers it. */
export const leadOf = async (client: Client, leadId: string) => (await client.get(`/v1/leads/${leadId}`)).body.lead;

/** The ids of the leads a list answered, in its order. */
export const leadIds = (body: { leads: Array<{ id: string }> }) => body.leads.map((found) => found.id);

/** What a browser posts for an HTML form: application/x-www-form-urlencoded, no API key. */
export const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/** The instant `days` days and `hour` hours from now, as an ISO timestamp. */
export const inDays = (days: number, hour = 0) => new Date(Date.now() + days * 86_400_000 + hour * 3_600_000).toISOString();

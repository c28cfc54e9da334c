import { expect } from 'vitest';
import { getProduct } from '../../shared/repositories/products';
import { getTransfer } from '../../shared/repositories/transfers';
import type { Client } from './api';

/** An ISO 8601 UTC timestamp with milliseconds, as the API writes every date. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** POSTs `body` to a collection and answers the created record (`key` of the body), failing the test unless it is 201. */
export async function created<T = any>(client: Client, path: string, key: string, body: unknown): Promise<T> {
  const res = await client.post(path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body[key] as T;
}

/** A product or transfer rule as stored, read past the API (neither has a GET endpoint). */
export const storedProduct = async (organizationId: string, id: number) => (await getProduct(organizationId, id))?.value;
export const storedTransfer = async (organizationId: string, id: number) => (await getTransfer(organizationId, id))?.value;

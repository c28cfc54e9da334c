import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { config } from '../config';
import { validationDetails } from '../http/validate';
import { dynamo } from '../dynamo';
import { fromProductItem, toProductItem, toProductNameItem, type VersionedProduct } from '../entities/product';
import { keys, normalizeName } from '../entities/keys';
import { ApiError, ConflictError, NotFoundError, ValidationError } from '../errors';
import { now } from '../ids';
import { BatchItem, type BatchResult, type CreateProductBody, type Product, type ProductChanges } from '../schemas/products';
import { batchGetItems } from './batch-get';
import { reserveIds } from './sequences';
import { transact } from './transact';
import { defined, moveUniqueItem, putIfVersion, sendPutIfVersion, transactWithVersionedPut, updateVersioned } from './versioned';

export const PRODUCT_SEQUENCE = 'PRODUCT';
export const PRODUCT_NOT_FOUND = 'Trade product not found';

const nameTaken = (name: string) => `A product named "${name.trim()}" already exists`;

type Pricing = Pick<Product, 'pricingType' | 'price' | 'maxPrice'>;
type PricingChanges = Pick<ProductChanges, 'pricingType' | 'price' | 'minPrice' | 'maxPrice'>;
/** The request field each pricing value came from, so a 400 names what the client sent. */
export type PricingLabels = Record<keyof PricingChanges, string>;
const BODY_LABELS: PricingLabels = { pricingType: 'pricingType', price: 'price', minPrice: 'minPrice', maxPrice: 'maxPrice' };
const BATCH_LABELS: PricingLabels = { pricingType: 'pricing.pricingType', price: 'pricing.price', minPrice: 'pricing.price', maxPrice: 'pricing.maxPrice' };

function invalid(path: string, message: string): never {
  throw new ValidationError([{ path, message: `${path} ${message}` }]);
}

/**
 * The pricing a product ends up with. NONE has no price; FIXED has `price`; RANGE has minPrice..maxPrice,
 * stored as price (the minimum) and maxPrice. Values of the current pricing carry over only while the
 * type stays the same; switching type starts from the request's values alone.
 */
export function resolvePricing(changes: PricingChanges, current?: Pricing, labels = BODY_LABELS): Pricing {
  const pricingType = changes.pricingType ?? current?.pricingType ?? invalid(labels.pricingType, 'is required');
  const kept = current?.pricingType === pricingType ? current : undefined;
  const forbid = (...fields: (keyof PricingChanges)[]) => {
    for (const field of fields) if (changes[field] !== undefined) invalid(labels[field], `must not be set when pricingType is ${pricingType}`);
  };
  if (pricingType === 'NONE') {
    forbid('price', 'minPrice', 'maxPrice');
    return { pricingType, price: null, maxPrice: null };
  }
  if (pricingType === 'FIXED') {
    forbid('minPrice', 'maxPrice');
    const price = changes.price ?? kept?.price ?? invalid(labels.price, 'is required when pricingType is FIXED');
    return { pricingType, price, maxPrice: null };
  }
  forbid('price');
  const minPrice = changes.minPrice ?? kept?.price ?? invalid(labels.minPrice, 'is required when pricingType is RANGE');
  const maxPrice = changes.maxPrice ?? kept?.maxPrice ?? invalid(labels.maxPrice, 'is required when pricingType is RANGE');
  if (minPrice > maxPrice) invalid(labels.maxPrice, `must be greater than or equal to ${labels.minPrice}`);
  return { pricingType, price: minPrice, maxPrice };
}

export function productFromRequest(body: CreateProductBody, createdAt: string): Omit<Product, 'id'> {
  return {
    name: body.name,
    description: body.description,
    response: body.response,
    tradeCategoryId: body.tradeCategoryId,
    ...resolvePricing(body),
    isDisclosePrice: body.isDisclosePrice,
    faqs: body.faqs,
    isActive: body.isActive,
    createdAt,
    updatedAt: createdAt,
  };
}

/** The merged product after a partial change; throws a 400 when the merged pricing is inconsistent. */
export function applyProductChanges(current: Product, changes: ProductChanges, updatedAt: string, labels = BODY_LABELS): Product {
  const { pricingType: _t, price: _p, minPrice: _min, maxPrice: _max, ...rest } = changes;
  return { ...current, ...defined(rest), ...resolvePricing(changes, current, labels), updatedAt };
}

/** The product and its name item in one transaction: a taken name → 409. */
export async function createProduct(organizationId: string, body: CreateProductBody, at = now()): Promise<Product> {
  const draft = productFromRequest(body, at);
  const product: Product = { id: await reserveIds(organizationId, PRODUCT_SEQUENCE), ...draft };
  await transact(
    [
      { Put: { TableName: config.tableName, Item: toProductItem(organizationId, { value: product, version: 1 }), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: config.tableName, Item: toProductNameItem(organizationId, product), ConditionExpression: 'attribute_not_exists(pk)' } },
    ],
    (index) => (index === 1 ? new ConflictError(nameTaken(product.name)) : new Error(`Product id ${product.id} collided`)),
  );
  return product;
}

export async function getProduct(organizationId: string, productId: number): Promise<VersionedProduct | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.product(organizationId, productId), ConsistentRead: true }));
  return Item && fromProductItem(Item);
}

/** Several products in one BatchGetItem per 100 ids. */
export async function getProducts(organizationId: string, productIds: number[]): Promise<Map<number, VersionedProduct>> {
  const unique = [...new Set(productIds)];
  const items = await batchGetItems(unique.map((id) => keys.product(organizationId, id)), { consistentRead: true });
  return new Map(items.map(fromProductItem).map((loaded) => [loaded.value.id, loaded]));
}

export interface UpdateProductOptions {
  /** The product as already read (null: known to be absent); read here when not given. */
  loaded?: VersionedProduct | null;
  labels?: PricingLabels;
}

/**
 * The one update path of PUT and of each batch item: read, merge, validate the merged product, then one
 * conditional write on the version that was read. A rename moves the name item in the same transaction,
 * so a taken name (409) changes nothing.
 */
export async function updateProduct(
  organizationId: string,
  productId: number,
  changes: ProductChanges,
  { loaded, labels }: UpdateProductOptions = {},
): Promise<VersionedProduct> {
  return updateVersioned({
    loaded,
    read: () => getProduct(organizationId, productId),
    merge: (current) => applyProductChanges(current, changes, now(), labels),
    notFound: () => new NotFoundError(PRODUCT_NOT_FOUND),
    write: (current, next) => {
      const put = putIfVersion(toProductItem(organizationId, next), current.version);
      if (normalizeName(current.value.name) === normalizeName(next.value.name)) return sendPutIfVersion(put);
      return transactWithVersionedPut(
        put,
        moveUniqueItem(keys.productName(organizationId, current.value.name), toProductNameItem(organizationId, next.value)),
        () => new ConflictError(nameTaken(next.value.name)),
      );
    },
  });
}

/** A batch item's pricing is {pricingType, price, maxPrice?}: for RANGE, `price` is the minimum. */
export function changesFromBatchItem({ name, pricing }: BatchItem): ProductChanges {
  if (!pricing) return { name };
  const { pricingType, price, maxPrice, isDisclosePrice } = pricing;
  const prices = pricingType === 'RANGE' ? { minPrice: price, maxPrice } : { price, maxPrice };
  return defined({ name, pricingType, ...prices, isDisclosePrice });
}

export interface BatchOutcome {
  results: BatchResult[];
  summary: { total: number; succeeded: number; failed: number };
}

type ParsedItem = { item: BatchItem } | { error: ValidationError; id: number | null };

function parseBatchItem(raw: unknown): ParsedItem {
  const result = v.safeParse(BatchItem, raw);
  if (result.success) return { item: result.output };
  const id = (raw as { id?: unknown } | null)?.id;
  return {
    id: Number.isInteger(id) ? (id as number) : null,
    // The result already sits at the item's position, so an issue of the whole item needs no path.
    error: new ValidationError(validationDetails(result.issues, '')),
  };
}

/**
 * Applies the items one after another. Each item is validated alone and written with its own
 * conditional write, so a failing item neither stops the batch nor undoes earlier items. All products
 * are read up front in one call; each success replaces its product in that set, so a second item
 * for the same id sees the first.
 */
export async function applyProductBatch(organizationId: string, rawItems: unknown[]): Promise<BatchOutcome> {
  const parsed = rawItems.map(parseBatchItem);
  const loaded = await getProducts(organizationId, parsed.flatMap((p) => ('item' in p ? [p.item.id] : [])));
  const results: BatchResult[] = [];
  for (const p of parsed) {
    if (!('item' in p)) {
      results.push({ id: p.id, status: 'error', code: p.error.code ?? 'VALIDATION_ERROR', message: p.error.message });
      continue;
    }
    const { id } = p.item;
    try {
      const updated = await updateProduct(organizationId, id, changesFromBatchItem(p.item), { loaded: loaded.get(id) ?? null, labels: BATCH_LABELS });
      loaded.set(id, updated);
      results.push({ id, status: 'ok', product: updated.value });
    } catch (error) {
      results.push(batchError(id, error));
    }
  }
  const succeeded = results.filter((result) => result.status === 'ok').length;
  return { results, summary: { total: results.length, succeeded, failed: results.length - succeeded } };
}

/** An unexpected failure is reported on its item rather than as a 500 that would hide the items already applied. */
function batchError(id: number, error: unknown): BatchResult {
  if (error instanceof ApiError) return { id, status: 'error', code: error.code ?? 'ERROR', message: error.message };
  console.error(JSON.stringify({ level: 'ERROR', message: 'batch item failed', productId: id, error: { name: (error as Error).name, message: (error as Error).message } }));
  return { id, status: 'error', code: 'INTERNAL_ERROR', message: 'Internal server error' };
}

import { isDeepStrictEqual } from 'node:util';
import * as v from 'valibot';
import { defined } from '#shared/store/changes';
import type { VersionedProduct } from './entity';
import { ApiError, BadRequestError, NotFoundError, ValidationError } from '#shared/errors';
import { now } from '#shared/ids';
import { deleteProduct, getProduct, getProducts, insertProduct, PRODUCT_SEQUENCE, writeProductVersion } from './store';
import { reserveIds } from '#shared/store/sequences';
import { StaleWrite, updateVersioned } from '#shared/store/versioned';
import { BatchItem, MAX_BATCH_ITEMS, Product, type BatchResult, type CreateProductBody, type ProductChanges } from './schema';
import { validationDetails } from '#shared/validation';

export const PRODUCT_NOT_FOUND = 'Trade product not found';

type Pricing = Pick<Product, 'pricingType' | 'price' | 'minPrice' | 'maxPrice'>;
type PricingChanges = Pick<ProductChanges, 'pricingType' | 'price' | 'minPrice' | 'maxPrice'>;
/** The request field each pricing value came from, so a 400 names what the client sent. */
type PricingLabels = Record<keyof PricingChanges, string>;
const BODY_LABELS: PricingLabels = { pricingType: 'pricingType', price: 'price', minPrice: 'minPrice', maxPrice: 'maxPrice' };
const BATCH_LABELS: PricingLabels = { pricingType: 'pricing.pricingType', price: 'pricing.price', minPrice: 'pricing.minPrice', maxPrice: 'pricing.maxPrice' };

function invalid(path: string, message: string): never {
  throw new ValidationError([{ path, message: `${path} ${message}` }]);
}

/**
 * The pricing a product ends up with. NONE has no price; FIXED has `price`; RANGE has `minPrice`..`maxPrice`. A price
 * sent as null is the same as one left out, so a read product's pricing sent back changes nothing. Values of the
 * current pricing carry over only while the type stays the same; switching type starts from the request's values alone.
 */
export function resolvePricing(changes: PricingChanges, current?: Pricing, labels = BODY_LABELS): Pricing {
  const pricingType = changes.pricingType ?? current?.pricingType ?? invalid(labels.pricingType, 'is required');
  const kept = current?.pricingType === pricingType ? current : undefined;
  const forbid = (...fields: (keyof PricingChanges)[]) => {
    for (const field of fields) if (changes[field] != null) invalid(labels[field], `must not be set when pricingType is ${pricingType}`);
  };
  if (pricingType === 'NONE') {
    forbid('price', 'minPrice', 'maxPrice');
    return { pricingType, price: null, minPrice: null, maxPrice: null };
  }
  if (pricingType === 'FIXED') {
    forbid('minPrice', 'maxPrice');
    const price = changes.price ?? kept?.price ?? invalid(labels.price, 'is required when pricingType is FIXED');
    return { pricingType, price, minPrice: null, maxPrice: null };
  }
  forbid('price');
  const minPrice = changes.minPrice ?? kept?.minPrice ?? invalid(labels.minPrice, 'is required when pricingType is RANGE');
  const maxPrice = changes.maxPrice ?? kept?.maxPrice ?? invalid(labels.maxPrice, 'is required when pricingType is RANGE');
  if (minPrice > maxPrice) invalid(labels.maxPrice, `must be greater than or equal to ${labels.minPrice}`);
  return { pricingType, price: null, minPrice, maxPrice };
}

/**
 * `base` with the changes applied: the request's pricing fields resolve into the stored ones, and the
 * schema checks the result and puts its fields in documented order.
 */
function applyChanges(base: Partial<Product>, changes: ProductChanges, current?: Pricing, labels = BODY_LABELS): Product {
  const { pricingType: _t, price: _p, minPrice: _min, maxPrice: _max, ...rest } = changes;
  return v.parse(Product, { ...base, ...defined(rest), ...resolvePricing(changes, current, labels) });
}

export async function createProduct(organizationId: string, body: CreateProductBody, at = now()): Promise<Product> {
  // Checked before an id is reserved, so a refused request reserves none.
  const { id: _, ...fields } = applyChanges({ id: 0, createdAt: at, updatedAt: at }, body);
  const product: Product = { id: await reserveIds(organizationId, PRODUCT_SEQUENCE), ...fields };
  await insertProduct(organizationId, product);
  return product;
}

export async function readProduct(organizationId: string, productId: number): Promise<Product> {
  const found = await getProduct(organizationId, productId);
  if (!found) throw new NotFoundError(PRODUCT_NOT_FOUND);
  return found.value;
}

/** Deletes the product and frees its name for another product. */
export async function removeProduct(organizationId: string, productId: number): Promise<void> {
  await deleteProduct(organizationId, productId, () => new NotFoundError(PRODUCT_NOT_FOUND));
}

/**
 * The write under way, kept until the table answers it: the version it was conditional on and the one it sent. A
 * fault meanwhile leaves unknown whether it was applied, or whether it still will be.
 */
interface Unanswered {
  write?: { current: VersionedProduct; sent: VersionedProduct };
}

interface ProductUpdate {
  /** The product as already read (null: known to be absent); read here when not given. */
  loaded?: VersionedProduct | null;
  labels?: PricingLabels;
  unanswered?: Unanswered;
}

/** An answer from the table refusing the write (a failed condition, a 4xx): nothing was written. */
const refusedByTable = (error: unknown) => error instanceof StaleWrite || error instanceof ApiError || (error as { $fault?: string }).$fault === 'client';

/** The one update path of PUT and of each batch item: read, merge, check the merged pricing, write on the version read. */
async function updateProductVersion(organizationId: string, productId: number, changes: ProductChanges, { loaded, labels, unanswered = {} }: ProductUpdate = {}) {
  return updateVersioned({
    loaded,
    read: () => getProduct(organizationId, productId),
    merge: (current) => applyChanges({ ...current, updatedAt: now() }, changes, current, labels),
    notFound: () => new NotFoundError(PRODUCT_NOT_FOUND),
    write: async (current, next) => {
      unanswered.write = { current, sent: next };
      await writeProductVersion(organizationId, current, next).catch((error: unknown) => {
        if (refusedByTable(error)) unanswered.write = undefined;
        throw error;
      });
      unanswered.write = undefined;
    },
  });
}

export async function updateProduct(organizationId: string, productId: number, changes: ProductChanges): Promise<Product> {
  return (await updateProductVersion(organizationId, productId, changes)).value;
}

/**
 * A batch item's pricing takes the names a product answers. For RANGE, `price` without `minPrice` is still read as the
 * minimum, as the batch took it before it had `minPrice`.
 */
function changesFromBatchItem({ name, pricing }: BatchItem): ProductChanges {
  if (!pricing) return { name };
  const { pricingType, price, minPrice, maxPrice, isDisclosePrice } = pricing;
  const legacyRange = pricingType === 'RANGE' && minPrice == null && price != null;
  const prices = legacyRange ? { minPrice: price, maxPrice } : { price, minPrice, maxPrice };
  return defined({ name, pricingType, ...prices, isDisclosePrice });
}

export interface BatchOutcome {
  results: BatchResult[];
  summary: { total: number; succeeded: number; failed: number; unknown: number };
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
 * for the same id sees the first. Over MAX_BATCH_ITEMS, nothing is applied.
 */
export async function applyProductBatch(organizationId: string, rawItems: unknown[]): Promise<BatchOutcome> {
  if (rawItems.length > MAX_BATCH_ITEMS) {
    throw new BadRequestError(`The batch exceeds ${MAX_BATCH_ITEMS} items (${rawItems.length} given); nothing was applied`, 'BATCH_TOO_LARGE');
  }
  const parsed = rawItems.map(parseBatchItem);
  const loaded = await getProducts(organizationId, parsed.flatMap((p) => ('item' in p ? [p.item.id] : [])));
  const results: BatchResult[] = [];
  for (const p of parsed) {
    if (!('item' in p)) {
      results.push({ id: p.id, status: 'error', code: p.error.code ?? 'VALIDATION_ERROR', message: p.error.message });
      continue;
    }
    results.push(await applyBatchItem(organizationId, p.item, loaded));
  }
  const count = (status: BatchResult['status']) => results.filter((result) => result.status === status).length;
  return { results, summary: { total: results.length, succeeded: count('ok'), failed: count('error'), unknown: count('unknown') } };
}

async function applyBatchItem(organizationId: string, item: BatchItem, loaded: Map<number, VersionedProduct>): Promise<BatchResult> {
  const { id } = item;
  const unanswered: Unanswered = {};
  try {
    const updated = await updateProductVersion(organizationId, id, changesFromBatchItem(item), { loaded: loaded.get(id) ?? null, labels: BATCH_LABELS, unanswered });
    loaded.set(id, updated);
    return { id, status: 'ok', product: updated.value };
  } catch (error) {
    if (error instanceof ApiError) return { id, status: 'error', code: error.code ?? 'ERROR', message: error.message };
    // An unexpected failure is reported on its item rather than as a 500 that would hide the items already applied.
    console.error(JSON.stringify({ level: 'ERROR', message: 'batch item failed', productId: id, error: { name: (error as Error).name, message: (error as Error).message } }));
    if (unanswered.write) return settleUnanswered(organizationId, unanswered.write, loaded);
    return { id, status: 'error', code: 'INTERNAL_ERROR', message: 'Internal server error' };
  }
}

/**
 * A write the table did not answer (a timeout, a lost connection, a 5xx) may have been applied, or may still be: a
 * request that timed out here can reach the table later. The same conditional write is sent again. Applied, the item
 * is: the first, if it ever arrives, then fails its condition. Refused, the first was applied or another write took the
 * version first, which the product read again tells apart: at `sent.version` with the content sent it was applied; at
 * that version with other content it never will be. Anything else (the write unanswered again, a later version, the
 * product gone or unreadable) leaves the outcome unknown.
 */
async function settleUnanswered(organizationId: string, { current, sent }: { current: VersionedProduct; sent: VersionedProduct }, loaded: Map<number, VersionedProduct>): Promise<BatchResult> {
  const { id } = sent.value;
  const resent = await writeProductVersion(organizationId, current, sent).then(
    () => 'applied' as const,
    (error: unknown) => (refusedByTable(error) ? ('refused' as const) : ('unanswered' as const)),
  );
  if (resent === 'applied') {
    loaded.set(id, sent);
    return { id, status: 'ok', product: sent.value };
  }
  // null: the product is gone; undefined: it could not be read.
  const stored = await getProduct(organizationId, id).then(
    (found) => found ?? null,
    () => undefined,
  );
  if (stored) loaded.set(id, stored);
  if (stored?.version === sent.version && isDeepStrictEqual(stored.value, sent.value)) return { id, status: 'ok', product: sent.value };
  if (resent === 'refused' && stored?.version === sent.version) return { id, status: 'error', code: 'UNAVAILABLE', message: NOT_APPLIED };
  return { id, status: 'unknown', code: 'UNKNOWN', message: OUTCOME_UNKNOWN };
}

const NOT_APPLIED = 'The table failed to answer the write, and another write changed the product meanwhile: this item was not applied and never will be; send it again';
const OUTCOME_UNKNOWN = 'The table failed to answer the write, and the product could not be read again to tell whether it was applied; read it before sending the item again';

import type { Product } from './schema';
import { productEntity } from './attributes';
import { keySamplesOf, recordsOfKind, textClaimKey } from '#shared/store/keys';
import { toVersionedItem, type Versioned } from '#shared/store/versioned-record';
import { changeLogKey } from '#shared/store/keys';
import type { AuditedRecord } from '#shared/resource';

export type VersionedProduct = Versioned<Product>;

export const productKeys = {
  product: productEntity.key,
  /** The organization's catalog of products (`PRODUCT#`, which `PRODUCTNAME#` does not begin with). */
  products: recordsOfKind('PRODUCT'),
  productName: textClaimKey('PRODUCTNAME'),
} as const;

export const productKeySamples = keySamplesOf(productKeys, { product: [1], products: [], productName: ['Tap'] });

export const toProductItem = (organizationId: string, product: VersionedProduct) => ({
  ...toVersionedItem(productKeys.product(organizationId, product.value.id), productEntity.entity, organizationId, product),
  ...changeLogKey(organizationId, PRODUCT_CHANGES),
});

/** The products' change log (updatedSince). */
export const PRODUCT_CHANGES = productEntity.changes;

export const fromProductItem = (item: Record<string, unknown>): VersionedProduct => ({ value: productEntity.fromItem(withMinPrice(item)), version: Number(item.version) });

/** An item written before products had `minPrice` held a RANGE's minimum in `price`. */
function withMinPrice(item: Record<string, unknown>): Record<string, unknown> {
  if ('minPrice' in item) return item;
  return item.pricingType === 'RANGE' ? { ...item, price: null, minPrice: item.price } : { ...item, minPrice: null };
}

/** Holds a product's name (trimmed, case-insensitive) so that no other product of the organization can take it. */
export function toProductNameItem(organizationId: string, product: Pick<Product, 'id' | 'name'>) {
  return { ...productKeys.productName(organizationId, product.name), entity: 'PRODUCT_NAME', productId: product.id, name: product.name };
}

/** A product, as the audit log names it (GET /v1/audit-log). */
export const productAudit: AuditedRecord = { entity: 'PRODUCT', resourceType: 'product' };

import * as v from 'valibot';
import { Product } from './schema';
import { keys } from '../../shared/store/keys';
import { toVersionedItem, type Versioned } from '../../shared/store/versioned-record';

export type VersionedProduct = Versioned<Product>;

export const toProductItem = (organizationId: string, product: VersionedProduct) =>
  toVersionedItem(keys.product(organizationId, product.value.id), 'PRODUCT', organizationId, product);

export const fromProductItem = (item: Record<string, unknown>): VersionedProduct => ({ value: v.parse(Product, item), version: Number(item.version) });

/** Holds a product's name (trimmed, case-insensitive) so that no other product of the organization can take it. */
export function toProductNameItem(organizationId: string, product: Pick<Product, 'id' | 'name'>) {
  return { ...keys.productName(organizationId, product.name), entity: 'PRODUCT_NAME', productId: product.id, name: product.name };
}

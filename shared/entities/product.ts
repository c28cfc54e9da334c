import type { Versioned } from '../repositories/versioned';
import type { Product } from '../schemas/products';
import { keys } from './keys';

export type VersionedProduct = Versioned<Product>;

export type ProductItem = Product & { pk: string; sk: string; entity: 'PRODUCT'; organizationId: string; version: number };

export function toProductItem(organizationId: string, { value: product, version }: VersionedProduct): ProductItem {
  return { ...keys.product(organizationId, product.id), entity: 'PRODUCT', organizationId, version, ...product };
}

export function fromProductItem(item: Record<string, unknown>): VersionedProduct {
  const i = item as ProductItem;
  return {
    version: i.version,
    value: {
      id: i.id,
      name: i.name,
      description: i.description ?? '',
      response: i.response ?? '',
      tradeCategoryId: i.tradeCategoryId,
      pricingType: i.pricingType,
      price: i.price ?? null,
      maxPrice: i.maxPrice ?? null,
      isDisclosePrice: i.isDisclosePrice ?? false,
      faqs: (i.faqs ?? []).map(({ question, answer }) => ({ question, answer })),
      isActive: i.isActive ?? true,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
    },
  };
}

/** Holds a product's name (trimmed, case-insensitive) so that no other product of the organization can take it. */
export function toProductNameItem(organizationId: string, product: Pick<Product, 'id' | 'name'>) {
  return { ...keys.productName(organizationId, product.name), entity: 'PRODUCT_NAME', productId: product.id, name: product.name };
}

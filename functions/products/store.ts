import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { normalizeName } from '../../shared/store/keys';
import { fromProductItem, productKeys, toProductItem, toProductNameItem, type VersionedProduct } from './entity';
import { ConflictError } from '../../shared/errors';
import type { Product } from './schema';
import { batchGetItems } from '../../shared/store/batch-get';
import { insertIfAbsent, transact } from '../../shared/store/transact';
import { moveUniqueItem, putIfVersion, writeVersion } from '../../shared/store/versioned';

export const PRODUCT_SEQUENCE = 'PRODUCT';

const nameTaken = (name: string) => () => new ConflictError(`A product named "${name.trim()}" already exists`);

/** The product and its name item in one transaction: a taken name → 409. */
export async function insertProduct(organizationId: string, product: Product): Promise<void> {
  await transact([
    insertIfAbsent(toProductItem(organizationId, { value: product, version: 1 })),
    insertIfAbsent(toProductNameItem(organizationId, product), nameTaken(product.name)),
  ]);
}

export async function getProduct(organizationId: string, productId: number): Promise<VersionedProduct | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: productKeys.product(organizationId, productId), ConsistentRead: true }));
  return Item && fromProductItem(Item);
}

/** Several products in one BatchGetItem per 100 ids. */
export async function getProducts(organizationId: string, productIds: number[]): Promise<Map<number, VersionedProduct>> {
  const unique = [...new Set(productIds)];
  const items = await batchGetItems(unique.map((id) => productKeys.product(organizationId, id)), { consistentRead: true });
  return new Map(items.map(fromProductItem).map((loaded) => [loaded.value.id, loaded]));
}

/**
 * One conditional write on the version that was read. A rename moves the name item in the same
 * transaction, so a taken name (409) changes nothing.
 */
export async function writeProductVersion(organizationId: string, current: VersionedProduct, next: VersionedProduct): Promise<void> {
  const renamed = normalizeName(current.value.name) !== normalizeName(next.value.name);
  await writeVersion(
    putIfVersion(toProductItem(organizationId, next), current.version),
    renamed ? moveUniqueItem(productKeys.productName(organizationId, current.value.name), toProductNameItem(organizationId, next.value), nameTaken(next.value.name)) : [],
  );
}

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/dynamo';
import { normalizeName } from '#shared/store/keys';
import { fromProductItem, PRODUCT_CHANGES, productAudit, productKeys, toProductItem, toProductNameItem, type VersionedProduct } from './entity';
import { ConflictError } from '#shared/errors';
import type { Page } from '#shared/pagination';
import { filteredCollectionPage } from '#shared/store/change-log';
import type { ListProductsQuery, Product } from './schema';
import { batchGetItems } from '#shared/store/batch-get';
import { deleteIfStill, deleteItem, insertIfAbsent, transact } from '#shared/store/transact';
import { moveUniqueItem, putIfVersion, retryOnStaleWrite, StaleWrite, writeVersion } from '#shared/store/versioned';
import { config } from '#shared/config';
import { auditDeletion } from '#shared/audit/deletion';

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

/**
 * A page of the organization's products, newest first, filtered by trade category, isActive and pricingType. A
 * catalog holds tens to hundreds of products, so the page reads the whole catalog in one Query and filters it here:
 * `totalCount` is exact under any filter without a counter per filter combination, at one call.
 */
export async function listProductsPage(organizationId: string, { tradeCategoryId, isActive, pricingType, ...request }: ListProductsQuery): Promise<Page<Product>> {
  const catalog = { organizationId, collection: productKeys.products(organizationId), changes: PRODUCT_CHANGES, filters: { tradeCategoryId, isActive, pricingType } };
  return filteredCollectionPage(request, catalog, (item) => fromProductItem(item).value);
}

/**
 * The product and its name item, in one transaction on condition of the version read, so the name freed is the one
 * the product has (a rename meanwhile is read again). An absent product → 404.
 */
export async function deleteProduct(organizationId: string, productId: number, notFound: () => Error): Promise<Product> {
  return retryOnStaleWrite(async () => {
    const current = await getProduct(organizationId, productId);
    if (!current) throw notFound();
    const key = productKeys.product(organizationId, productId);
    await transact([
      deleteIfStill(key, ['version', current.version], () => new StaleWrite()),
      deleteItem(productKeys.productName(organizationId, current.value.name)),
      ...auditDeletion(organizationId, productAudit, productId),
    ]);
    return current.value;
  });
}

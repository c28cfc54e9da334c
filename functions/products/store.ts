import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/dynamo';
import { normalizeName } from '#shared/store/keys';
import { fromProductItem, PRODUCT_CHANGES, productAudit, productKeys, toProductItem, toProductNameItem, type VersionedProduct } from './entity';
import { ConflictError } from '#shared/errors';
import { filterSignature } from '#shared/filters';
import type { Page } from '#shared/pagination';
import { filteredPage } from '#shared/store/collection-page';
import { changeLogKey, listOrChanges } from '#shared/store/change-log';
import type { ListProductsQuery, Product } from './schema';
import { batchGetItems } from '#shared/store/batch-get';
import { deleteItem, insertIfAbsent, transact } from '#shared/store/transact';
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
  const { page, limit } = request;
  const filters = { tradeCategoryId, isActive, pricingType };
  const keep = (item: Record<string, unknown>) =>
    (tradeCategoryId === undefined || item.tradeCategoryId === tradeCategoryId) && (isActive === undefined || item.isActive === isActive) && (pricingType === undefined || item.pricingType === pricingType);
  const log = { partition: changeLogKey(organizationId, PRODUCT_CHANGES).gsi6pk, filters };
  const found = await listOrChanges(request, log, (at) => filteredPage(productKeys.products(organizationId), { keep, filter: filterSignature(filters) }, at));
  return { items: found.items.map((item) => fromProductItem(item).value), totalCount: found.totalCount ?? 0, page, limit, nextCursor: found.nextCursor };
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
      {
        item: { Delete: { TableName: config.tableName, Key: key, ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': current.version } } },
        onConditionFailed: () => new StaleWrite(),
      },
      deleteItem(productKeys.productName(organizationId, current.value.name)),
      ...auditDeletion(organizationId, productAudit, productId),
    ]);
    return current.value;
  });
}

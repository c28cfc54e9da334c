import { defineResource, lifecycleEvents } from '../../shared/resource';
import { fromProductItem, productAudit, productKeys, productKeySamples } from './entity';
import { product } from './examples';
import { productRoutes } from './routes';
import { BatchResult, Product } from './schema';

export const products = defineResource({
  name: 'products',
  tags: { Products: 'Trade products with their pricing, including sequential batch updates with per-item results.' },
  routes: productRoutes,
  components: { Product: { schema: Product, example: product }, ProductBatchResult: { schema: BatchResult, example: undefined } },
  events: [lifecycleEvents({ entity: 'PRODUCT', toData: (item) => fromProductItem(item).value, created: 'product.created', updated: 'product.updated', deleted: 'product.deleted' })],
  audited: [productAudit],
  keys: [{ builders: productKeys, samples: productKeySamples }],
});

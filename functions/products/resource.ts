import { defineResource } from '#shared/resource';
import { productKeys, productKeySamples } from './entity';
import { product } from './examples';
import { productRoutes } from './routes';
import { BatchResult, Product } from './schema';
import { changes } from './changes';

export const products = defineResource({
  name: 'products',
  tags: { Products: 'Trade products with their pricing, including sequential batch updates with per-item results.' },
  routes: productRoutes,
  components: { Product: { schema: Product, example: product }, ProductBatchResult: { schema: BatchResult, example: undefined } },
  ...changes,
  keys: [{ builders: productKeys, samples: productKeySamples }],
});

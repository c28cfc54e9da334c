import { defineResource, namedComponents } from '#shared/resource';
import { productKeys, productKeySamples } from './entity';
import * as examples from './examples';
import { productRoutes } from './routes';
import { BatchResult, Product } from './schema';
import { changes } from './changes';

export const products = defineResource({
  name: 'products',
  tags: { Products: 'Trade products with their pricing, including sequential batch updates with per-item results.' },
  routes: productRoutes,
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  components: namedComponents({ Product, ProductBatchResult: BatchResult }, examples),
  ...changes,
  keys: [{ builders: productKeys, samples: productKeySamples }],
});

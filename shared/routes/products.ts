import { errorEnvelope } from '../http/envelope';
import {
  BatchUpdateProductsBody,
  BatchUpdateProductsResponse,
  CreateProductBody,
  MAX_BATCH_ITEMS,
  ProductIdPath,
  ProductResponse,
  UpdateProductBody,
} from '../schemas/products';
import { defineRoute } from './route';

export const createProduct = defineRoute({
  operationId: 'createProduct',
  method: 'POST',
  path: '/v1/products',
  handler: 'products/create',
  summary: 'Create a trade product (pricing per pricingType)',
  tag: 'Products',
  dynamodb: ['UpdateItem', 'PutItem'],
  status: 201,
  request: { body: CreateProductBody },
  response: ProductResponse,
  errors: [400, 409],
});

export const updateProduct = defineRoute({
  operationId: 'updateProduct',
  method: 'PUT',
  path: '/v1/products/{productId}',
  handler: 'products/update',
  summary: 'Change any subset of a trade product’s fields',
  tag: 'Products',
  dynamodb: ['GetItem', 'PutItem', 'DeleteItem'],
  status: 200,
  request: { path: ProductIdPath, body: UpdateProductBody },
  response: ProductResponse,
  errors: [400, 404, 409],
});

export const batchUpdateProducts = defineRoute({
  operationId: 'batchUpdateProducts',
  method: 'PATCH',
  path: '/v1/products/batch',
  handler: 'products/batch',
  summary: 'Rename and re-price up to 100 trade products, item by item',
  tag: 'Products',
  dynamodb: ['BatchGetItem', 'GetItem', 'PutItem', 'DeleteItem'],
  status: 200,
  request: { body: BatchUpdateProductsBody },
  response: BatchUpdateProductsResponse,
  errors: [400],
  responses: { 400: { examples: { BatchTooLarge: errorEnvelope(400, `The batch exceeds ${MAX_BATCH_ITEMS} items (101 given); nothing was applied`, 'BATCH_TOO_LARGE') } } },
});

export const productRoutes = [createProduct, updateProduct, batchUpdateProducts];

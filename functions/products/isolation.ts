import type { IsolationCases } from '#shared/resource';

/**
 * How each products route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getProduct: [{ path: (ids) => `/v1/products/${ids.productId}`, expect: 'not-found' }],
  deleteProduct: [{ path: (ids) => `/v1/products/${ids.productId}`, expect: 'not-found' }],
  updateProduct: [{ path: (ids) => `/v1/products/${ids.productId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
  batchUpdateProducts: [{ path: () => '/v1/products/batch', body: (ids) => ({ updates: [{ id: ids.productId, name: 'Taken' }] }), expect: 'batch-not-found' }],
  createProduct: 'creates; references nothing',
  listProducts: 'lists the caller’s products; the filters are a catalog id, a boolean and a type, none a record of another organization',
};

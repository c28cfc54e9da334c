import { SEQUENCE, type ResourceTour } from '#shared/route-tour';

/** The route tour's requests of products (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    {
      route: 'POST /v1/products',
      kind: 'create',
      exception: { reason: SEQUENCE },
      request: () => ({ method: 'POST', path: '/v1/products', body: { name: 'Hot water system install', tradeCategoryId: 1, pricingType: 'RANGE', minPrice: 1200, maxPrice: 3500 } }),
      keep: (b, s) => (s.productId = b.product.id),
    },
    { route: 'PUT /v1/products/{productId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/products/${s.productId}`, body: { description: 'Now with free removal.' } }) },
    { route: 'PATCH /v1/products/{productId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/products/${s.productId}`, body: { description: 'Now with free removal.' } }) },
    { route: 'PATCH /v1/products/batch', kind: 'batch', request: (s) => ({ method: 'PATCH', path: '/v1/products/batch', body: { updates: [1, 2, 3].map((i) => ({ id: s.productId, name: `Hot water install ${i}` })) } }) },
    { route: 'GET /v1/products/{productId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/products/${s.productId}` }) },
    { route: 'GET /v1/products', kind: 'list', request: () => ({ method: 'GET', path: '/v1/products?tradeCategoryId=1&isActive=true' }) },
    { route: 'DELETE /v1/products/{productId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/products/${s.productId}` }) },
  ],
};

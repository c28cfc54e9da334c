import { OpenApiDocumentSchema, REFERENCE_RENDERER, TextBody } from '../openapi/schemas';
import { defineRoute } from './route';

export const getOpenApiDocument = defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/openapi',
  handler: 'meta/openapi',
  summary: 'This description of the API (OpenAPI 3.1)',
  description: 'The OpenAPI 3.1 document, generated from the same route table and schemas that validate every request. Public.',
  tag: 'Reference',
  auth: 'none',
  dynamodb: [],
  status: 200,
  request: {},
  response: OpenApiDocumentSchema,
  errors: [],
});

export const getApiReference = defineRoute({
  operationId: 'getApiReference',
  method: 'GET',
  path: '/docs',
  handler: 'meta/docs',
  summary: 'The API reference page, rendered from /openapi in the browser',
  description: 'An HTML reference of this API, rendered in the browser from `/openapi`, with a console to try requests. Public.',
  tag: 'Reference',
  auth: 'none',
  dynamodb: [],
  status: 200,
  contentType: 'text/html; charset=utf-8',
  request: {},
  response: TextBody,
  errors: [],
});

export const getApiReferenceScript = defineRoute({
  operationId: 'getApiReferenceScript',
  method: 'GET',
  path: '/docs/api-reference.js',
  handler: 'meta/docs-script',
  summary: 'The reference page’s renderer (Scalar), served by the API so the page needs no other host',
  description: 'The script `/docs` runs. Served by the API itself so the reference page needs no other host. Public.',
  tag: 'Reference',
  auth: 'none',
  dynamodb: [],
  status: 200,
  contentType: 'text/javascript; charset=utf-8',
  // The same for every request until the next deploy: a browser may keep it for a day.
  cacheControl: 'public, max-age=86400',
  request: {},
  response: TextBody,
  errors: [],
  assets: [REFERENCE_RENDERER],
});

export const metaRoutes = [getOpenApiDocument, getApiReference, getApiReferenceScript];

import { OpenApiDocumentSchema, REFERENCE_RENDERER, TextBody } from '../openapi/schemas';
import { defineRoute } from './route';

export const getOpenApiDocument = defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/openapi',
  handler: 'meta/openapi',
  summary: 'This description of the API (OpenAPI 3.1)',
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
  tag: 'Reference',
  auth: 'none',
  dynamodb: [],
  status: 200,
  contentType: 'text/javascript; charset=utf-8',
  request: {},
  response: TextBody,
  errors: [],
  assets: [REFERENCE_RENDERER],
});

export const metaRoutes = [getOpenApiDocument, getApiReference, getApiReferenceScript];

import { errorEnvelope } from '#shared/http/envelope';
import { AssetPath, OpenApiDocumentSchema, REFERENCE_RENDERER, TextBody } from '#shared/openapi/schemas';
import { defineRoute } from '#shared/routes/route';

export const getOpenApiDocument = defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/openapi',
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
  path: '/docs/{asset}',
  summary: 'The reference page’s renderer (Scalar), served by the API so the page needs no other host',
  description:
    'The script `/docs` runs, at the name the page gives it: `api-reference.<hash>.js`, the hash of its content. Any other name answers 404. Gzipped when Accept-Encoding allows it. Served by the API itself so the reference page needs no other host. Public.',
  tag: 'Reference',
  auth: 'none',
  dynamodb: [],
  status: 200,
  contentType: 'text/javascript; charset=utf-8',
  // Its name changes with its content, so a browser may keep it for a year without asking again.
  cacheControl: 'public, max-age=31536000, immutable',
  request: { path: AssetPath },
  response: TextBody,
  errors: [400, 404],
  responses: {
    404: {
      description: 'No asset by that name: not the current renderer’s (a previous deploy’s, say).',
      examples: { NotFound: errorEnvelope(404, 'Asset not found', 'NOT_FOUND') },
    },
  },
  assets: [REFERENCE_RENDERER],
});

export const metaRoutes = [getOpenApiDocument, getApiReference, getApiReferenceScript];

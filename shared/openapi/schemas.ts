import * as v from 'valibot';

/** The renderer the reference page runs (Scalar's standalone bundle, below node_modules); the API serves it. */
export const REFERENCE_RENDERER = '@scalar/api-reference/dist/browser/standalone.js';

/** The outline of an OpenAPI 3.1 document; the validity test checks the rest against the OpenAPI schema. */
export const OpenApiDocumentSchema = v.looseObject({
  openapi: v.pipe(v.string(), v.startsWith('3.1.')),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.looseObject({})),
});

export type OpenApiDocument = v.InferInput<typeof OpenApiDocumentSchema>;

export const TextBody = v.string();

/** The file name of an asset the API serves, such as the reference page's renderer. */
export const AssetPath = v.object({
  asset: v.pipe(v.string('asset must be a string'), v.maxLength(100, 'asset must be at most 100 characters'), v.description('The file name, as the reference page names it: api-reference.<hash>.js.')),
});

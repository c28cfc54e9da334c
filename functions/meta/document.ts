import { buildOpenApiDocument, type ApiDescription } from '../../shared/openapi/document';
import type { OpenApiDocument } from '../../shared/openapi/schemas';
import { componentExamples, componentSchemas, routes, tags } from '../resources';

/** This API as its document describes it: the resources' routes, tags, named schemas and their examples. */
export const API: ApiDescription = { routes, tags, components: componentSchemas, examples: componentExamples };

export const buildDocument = (): OpenApiDocument => buildOpenApiDocument(API);

let cached: OpenApiDocument | undefined;

/** Built once per container: the route table does not change while it runs. */
export function openApiDocument(): OpenApiDocument {
  return (cached ??= buildDocument());
}

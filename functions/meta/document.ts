import { buildOpenApiDocument, type ApiDescription } from '../../shared/openapi/document';
import type { OpenApiDocument } from '../../shared/openapi/schemas';
import { routes } from '../resources';
import { componentSchemas } from './components';
import { componentExamples } from './examples';
import { TAG_DESCRIPTIONS } from './tags';

/** This API as its document describes it: the resources' routes, the tags, the named schemas and their examples. */
export const API: ApiDescription = { routes, tags: TAG_DESCRIPTIONS, components: componentSchemas, examples: componentExamples };

export const buildDocument = (): OpenApiDocument => buildOpenApiDocument(API);

let cached: OpenApiDocument | undefined;

/** Built once per container: the route table does not change while it runs. */
export function openApiDocument(): OpenApiDocument {
  return (cached ??= buildDocument());
}

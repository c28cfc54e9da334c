import { NotFoundError } from '#shared/errors';
import { publicBaseUrl } from '#shared/http/base-url';
import { routeHandler } from '#shared/http/route-handler';
import { referenceRenderer } from '#shared/openapi/reference-renderer';
import { referencePage } from './reference-page';
import * as routes from './routes';

/**
 * The handlers of the reference routes, one per route, named by its operationId: the stack bundles this module into
 * each route's function. Each builds what it serves on its first request and keeps it for the container's life, so a
 * function pays only for its own: the document reads every resource, the script is a 4.3 MB file only its function has.
 * They read no table, so they are built without the idempotency store and bundle no DynamoDB client.
 */
let page: string | undefined;
let renderer: ReturnType<typeof referenceRenderer> | undefined;

// The document names the API that served it as its server: its configured base URL (under npm start, the Host asked).
export const getOpenApiDocumentHandler = routeHandler(routes.getOpenApiDocument, async ({ request }) => (await import('./document')).openApiDocument(publicBaseUrl(request.headers)));

// The page names the renderer by the hash of its content.
export const getApiReferenceHandler = routeHandler(routes.getApiReference, async () => (page ??= referencePage()));

export const getApiReferenceScriptHandler = routeHandler(routes.getApiReferenceScript, async ({ path }) => {
  // 4.3 MB as text, 1.7 MB gzipped and base64-encoded, under Lambda's 6 MB response limit.
  renderer ??= referenceRenderer();
  // A name stands for one content for a year (immutable): any other, a previous deploy's too, is not found.
  if (path.asset !== renderer.name) throw new NotFoundError('Asset not found');
  return renderer.script;
});

import { NotFoundError } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { referenceRenderer } from '../../shared/openapi/reference-renderer';
import * as routes from './routes';

// Read once per container: 4.3 MB as text, 1.7 MB gzipped and base64-encoded, under Lambda's 6 MB response limit.
const renderer = referenceRenderer();

export const handler = apiHandler(routes.getApiReferenceScript, async ({ path }) => {
  // A name stands for one content for a year (immutable): any other, a previous deploy's too, is not found.
  if (path.asset !== renderer.name) throw new NotFoundError('Asset not found');
  return renderer.script;
});

import { apiHandler } from '../../shared/http/api-handler';
import { openApiDocument } from '../../shared/openapi/document';
import * as routes from '../../shared/routes/meta';

export const handler = apiHandler(routes.getOpenApiDocument, async () => openApiDocument());

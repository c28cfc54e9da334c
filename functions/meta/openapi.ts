import { apiHandler } from '../../shared/http/api-handler';
import { openApiDocument } from './document';
import * as routes from './routes';

export const handler = apiHandler(routes.getOpenApiDocument, async () => openApiDocument());

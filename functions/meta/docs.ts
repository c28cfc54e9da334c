import { apiHandler } from '../../shared/http/api-handler';
import { referencePage } from '../../shared/openapi/reference-page';
import * as routes from '../../shared/routes/meta';

export const handler = apiHandler(routes.getApiReference, async () => referencePage());

import { apiHandler } from '../../shared/http/api-handler';
import { referencePage } from './reference-page';
import * as routes from './routes';

// Built once per container: it names the renderer by the hash of its content.
const page = referencePage();

export const handler = apiHandler(routes.getApiReference, async () => page);

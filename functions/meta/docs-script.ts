import { readAsset } from '../../shared/http/assets';
import { REFERENCE_RENDERER } from '../../shared/openapi/schemas';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/meta';

// Read once per container: 4.4 MB, under Lambda's 6 MB response limit.
const script = readAsset(REFERENCE_RENDERER);

export const handler = apiHandler(routes.getApiReferenceScript, async () => script);

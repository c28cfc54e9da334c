import { ingestInquiry } from './ingestion';
import { Answer } from '../../shared/http/answer';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.ingestInquiry, async ({ body, organizationId }) => {
  const { inquiry, created } = await ingestInquiry(organizationId, body);
  return created ? { inquiry } : new Answer(200, { inquiry });
});

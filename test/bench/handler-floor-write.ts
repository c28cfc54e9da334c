import { apiHandler } from '#shared/http/api-handler';
import { dynamo } from '#shared/dynamo';
import { createLead } from '../../functions/leads/routes';

/**
 * The floor under a write route's cold start: the read floor (./handler-floor.ts) and the factory's write path
 * (the Idempotency-Key's records, the writer's stamps, write tokens), which a write route's function loads at import
 * (shared/http/api-handler.ts). Imported as Lambda imports it, with `_HANDLER` naming this export, a write route's
 * handler (`createLeadHandler`), so the write path is parsed at import as in a deployed write function.
 */
export const createLeadHandler = apiHandler(createLead, async () => ({ lead: String(Boolean(dynamo)) as never }));

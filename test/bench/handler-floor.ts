import { apiHandler } from '#shared/http/api-handler';
import { dynamo } from '#shared/dynamo';
import { getLead } from '../../functions/leads/routes';

/**
 * The floor under a read route's cold start, as a read route's function deploys (GET, the most frequent function of
 * each resource): the handler factory (middy, Powertools Logger and Metrics, the route's valibot schemas, the error
 * envelope) and the table's document client, around a handler that reads nothing. A read route never loads the
 * factory's write path (shared/http/write-path.ts); ./handler-floor-write.ts is a write route's floor.
 */
export const handler = apiHandler(getLead, async () => ({ lead: String(Boolean(dynamo)) as never }));

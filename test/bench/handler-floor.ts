import { apiHandler } from '#shared/http/api-handler';
import { getLead } from '../../functions/leads/routes';

/**
 * The floor under every function's cold start: the handler factory (middy, Powertools Logger and Metrics, the
 * route's valibot schemas, the error envelope, the idempotency store's client) around a handler that reads nothing.
 */
export const handler = apiHandler(getLead, async () => ({ lead: undefined as never }));

import { apiHandler } from '#shared/http/api-handler';
import * as routes from './routes';
import { lookupCaller } from './rules';
import { etagOf, namesEtag, receptionistContext } from './context';
import { IfNoneMatch } from './context-schema';
import { parseOrThrow } from '#shared/validation';
import { Answer, EmptyAnswer } from '#shared/http/answer';

/** The handlers of the receptionist routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const lookupCallerHandler = apiHandler(routes.lookupCaller, async ({ path, organizationId }) => lookupCaller(organizationId, path.phone));

export const getReceptionistContextHandler = apiHandler(routes.getReceptionistContext, async ({ organizationId, request }) => {
  const ifNoneMatch = parseOrThrow(IfNoneMatch, request.headers['if-none-match'], 'If-None-Match');
  const context = await receptionistContext(organizationId);
  const etag = etagOf(JSON.stringify(context));
  // An unchanged context costs the caller no body: the agent keeps what it loaded.
  if (namesEtag(ifNoneMatch, etag)) return new EmptyAnswer(304, { etag });
  return new Answer(200, context, { etag });
});

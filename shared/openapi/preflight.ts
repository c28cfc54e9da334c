import { PREFLIGHT_HEADERS } from '../http/cors';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '../http/gateway-responses';
import { authorizerOf, type RouteDefinition } from '../routes/route';
import { headerParameters, parameters } from './operation';
import { envelopeRef, examplesObject, headerObjects, JSON_MEDIA_TYPE, SHARED_ERRORS, type Json } from './responses';

/**
 * The CORS preflight of a route with `preflight` (OPTIONS on its path), which its function answers behind the same
 * authorizer: 204, with the CORS headers for an allowed origin asking to POST; 401 as the route itself for a wrong token.
 */
export function preflightOperation(route: RouteDefinition): Json {
  const preflightHeaders: Record<string, string> = {
    'Access-Control-Allow-Origin': 'The request’s Origin, when the route allows it; absent otherwise, as are the others.',
    'Access-Control-Allow-Methods': `\`${PREFLIGHT_HEADERS['access-control-allow-methods']}\`.`,
    'Access-Control-Allow-Headers': `\`${PREFLIGHT_HEADERS['access-control-allow-headers']}\`.`,
    'Access-Control-Max-Age': `\`${PREFLIGHT_HEADERS['access-control-max-age']}\`: seconds a browser may keep this answer.`,
    Vary: '`Origin`, with Access-Control-Allow-Origin.',
  };
  const headers = headerObjects(preflightHeaders);
  const asked: RouteDefinition['requestHeaders'] = {
    Origin: { description: 'The page’s origin, as the browser sends it.', schema: { type: 'string', maxLength: 2048 } },
    'Access-Control-Request-Method': { description: 'The method the page will send: `POST`; any other gets no CORS headers.', schema: { type: 'string', maxLength: 20 } },
    'Access-Control-Request-Headers': { description: 'The headers the page will send (Content-Type, Idempotency-Key).', schema: { type: 'string', maxLength: 1000 } },
  };
  const pathAndQuery = parameters({ ...route, method: 'GET', requestHeaders: undefined });
  // It reads no body and refuses no parameter: only a path the gateway cannot decode, the credential and the gateway's own answers can fail it.
  const statuses = [204, 400, ...route.errors.filter((status) => status === 401), 429, 500, ...(authorizerOf(route) ? [503] : []), 504];
  const responses = Object.fromEntries(
    statuses.map((status) => [
      String(status),
      status === 204
        ? { description: 'The preflight’s answer: for an allowed origin asking to POST, the CORS headers that let its page post; no body.', headers }
        : status === 400
          ? {
              description: 'The URL’s path is not valid percent-encoding (`%FF`), which the gateway refuses before anything reads the token: no CORS headers.',
              content: { [JSON_MEDIA_TYPE]: { schema: envelopeRef, examples: examplesObject({ BadRequest: gatewayResponseBody(GATEWAY_RESPONSES.DEFAULT_4XX) }) } },
            }
          : status === 401
          ? { description: 'The URL’s token is missing or wrong, or there is no such endpoint: no CORS headers.', content: { [JSON_MEDIA_TYPE]: { schema: envelopeRef } } }
          : { $ref: `#/components/responses/${SHARED_ERRORS[status]!.name}` },
    ]),
  );
  return {
    operationId: `${route.operationId}Preflight`,
    summary: `The CORS preflight of ${route.method} ${route.path}`,
    description:
      `A browser asks before a page on another site sends \`${route.method} ${route.path}\` with JSON: answered 204, with the CORS headers when the page’s origin is allowed and it asks for ${route.method}, ` +
      `without them otherwise. The URL is asked as it is, token included, and the token is checked as on the ${route.method}.`,
    tags: [route.tag],
    security: [],
    parameters: [...pathAndQuery, ...headerParameters(asked)],
    responses,
  };
}

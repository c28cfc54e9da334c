import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { callerAddressOf } from './caller-address';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as v from 'valibot';
import { refusedUnrun, ValidationError } from '../errors';
import { unauthorizedByFunction } from './unauthorized';
import { AUDIENCE_BOUND } from '../auth/tokens';
import { memberSessionChecks, memberSessionOf } from './member-session';
import { clock } from '../clock';
import type { RouteDefinition, RouteRequest } from '../routes/route';
import { emptyResponse, JSON_HEADERS, jsonResponse, textResponse, type JsonResponse } from './envelope';
import { answersIdempotently, IDEMPOTENCY_HEADER, readsBody, routeId, takesJsonBody, takesNoFields } from '../routes/route';
import { actingFor, onSessionEvent } from '../tenancy/session';
import { sessionGrantOf } from '../tenancy/policies';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { absentBodyIsEmptyObject, accessLog, bodySizeLimit, errorEnvelope, jsonBodyAsText, jsonContentTypeOnly } from './middleware';
import { logger, METRIC } from '../observability';
import { metrics } from '../metrics';
import { parseOrThrow } from '../validation';
import { Answer, EmptyAnswer } from './answer';
import { CompressibleJson, type CompressibleText } from './compressible-text';
import { DEFAULT_SCOPE, isApiKeyScope, type ApiKeyScope } from '../auth/scopes';

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

/** What a handler returns: the input type of its route's response schema, which the document describes. */
export type HandlerOutput<S extends v.GenericSchema> = v.InferInput<S>;

/** A text route's handler may return its body as CompressibleText, gzipped for a client that accepts it. */
type CompressibleOutput<S extends v.GenericSchema> = HandlerOutput<S> extends string ? CompressibleText : never;

/** What the handler factory is given of storage: where idempotency records live, and the scope a request's work runs in. */
export interface HandlerStorage {
  /** The Idempotency-Key middleware over where its records live (./idempotency.ts, `idempotency`). */
  keptAnswers?: () => MiddlewareObj<APIGatewayProxyEvent, JsonResponse, Error, Context>;
  /** What the storage throws, as the domain error it is (a store that did not answer: 503 STORE_UNAVAILABLE). */
  asDomainError?: (error: Error) => Error;
  scope?: <T>(event: APIGatewayProxyEvent, run: () => Promise<T>) => Promise<T>;
}

/** A route's own work: from the parsed request to what it answers. */
export type RouteHandle<R extends RouteRequest, S extends v.GenericSchema> = (
  input: HandlerInput<R>,
) => Promise<HandlerOutput<S> | Answer<HandlerOutput<S>> | EmptyAnswer | CompressibleOutput<S> | CompressibleJson<HandlerOutput<S>>>;

export interface HandlerInput<R extends RouteRequest> {
  path: Out<R['path']>;
  query: Out<R['query']>;
  /** Nothing on a route that reads its body as text (`bodyAsText`): its `request.body`. */
  body: R['bodyAsText'] extends true ? undefined : Out<R['body']>;
  /**
   * Set by the authorizer, from the API key (or on a public route whose authorizer names it, `organizationSession`);
   * the only source of the organization. Empty on any other public route.
   */
  organizationId: string;
  /**
   * What the request's API key may do, set by the authorizer: `read`, `write` or `full` (shared/auth/scopes.ts). The
   * gateway has already refused the methods outside it; a route that serves several operations at one method (the
   * MCP endpoint) checks each against it. Null on public routes, which take no key.
   */
  scope: ApiKeyScope | null;
  /** The request as received, for the few routes that read more than path, query and JSON body. */
  request: RawRequest;
}

export interface RawRequest {
  /** The method asked: OPTIONS on a route whose function also answers its CORS preflight (`preflight`). */
  method: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string | null;
  /** What the gateway's authorizer answered in its context (never shown to the caller): the MCP server's token for an OAuth access token. */
  authorizer: Readonly<Record<string, unknown>>;
  /** The caller's address: the viewer's behind the distribution, else the connection's; never a header the client writes (./caller-address.ts). */
  sourceIp: string | undefined;
}

const lowerCasedHeaders = (event: APIGatewayProxyEvent): Record<string, string> =>
  Object.fromEntries(Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value ?? '']));

/**
 * The request's headers (lower-cased names) and raw body. No URL is built from its Host here: a caller chooses it
 * (the API's own base URL is ./base-url.ts).
 */
function rawRequest(event: APIGatewayProxyEvent): RawRequest {
  const headers = lowerCasedHeaders(event);
  // A route with a body schema has its JSON parsed in place by then; only the others, and one reading its body as text, keep the raw text.
  const body = typeof event.body !== 'string' ? null : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  return { method: event.httpMethod, headers, body, authorizer: event.requestContext?.authorizer ?? {}, sourceIp: callerAddressOf(event) };
}

/** The body of an action that takes no fields: `{}`, or none (read as `{}`); a field in it is refused by name. Its handler reads none. */
const NO_FIELDS = v.strictObject({});

/** A keyed route that answers idempotently keeps its answers in an idempotency store. */
const needsIdempotencyStore = (route: RouteDefinition<RouteRequest, v.GenericSchema>) => answersIdempotently(route) && route.auth !== 'none';

/**
 * Storage given at once, or loaded with import() (a write route's, ./api-handler.ts): loaded at the first request
 * unless the function's module loaded it at import.
 */
export type HandlerStorageSource = HandlerStorage | (() => Promise<HandlerStorage>);

/** What a route's function is invoked with, and answers. */
export type RouteLambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<JsonResponse>;

/**
 * Builds a Lambda handler for a route: logs, maps errors to the envelope, parses JSON,
 * validates path, query and body with the route's schemas, and serialises the result (JSON unless
 * the route sets another content type, whose body the handler returns as a string, or as
 * CompressibleText to have it gzipped for a client that accepts it). A keyed route that answers idempotently needs
 * `keptAnswers`; a route that reads no table is built without one, and so bundles no DynamoDB client.
 *
 * A module exports the handlers of all its routes and each function runs only one of them, so the middleware chain
 * is built on the handler's first request and kept for the container's life: importing the module builds none of the
 * others. What is wrong with the route itself still fails at import.
 */
export function routeHandler<R extends RouteRequest, S extends v.GenericSchema>(
  route: RouteDefinition<R, S>,
  handle: RouteHandle<R, S>,
  storage: HandlerStorageSource = {},
): RouteLambdaHandler {
  const withStore = (given: HandlerStorage) => {
    if (needsIdempotencyStore(route) && !given.keptAnswers) throw new Error(`${route.operationId} answers idempotently and needs an idempotency store`);
    return given;
  };
  if (typeof storage !== 'function') {
    withStore(storage);
    let chain: RouteLambdaHandler | undefined;
    return forItsOrganization(route, (event, context) => (chain ??= chainOf(route, handle, storage))(event, context));
  }
  // A load that failed is tried again by the next request.
  let loading: Promise<RouteLambdaHandler> | undefined;
  return forItsOrganization(route, async (event, context) => {
    loading ??= storage().then((loaded) => chainOf(route, handle, withStore(loaded)), (error: unknown) => {
      loading = undefined;
      throw error;
    });
    return (await loading)(event, context);
  });
}

// Each AssumeRole, and each STS refused, counted with the request's metrics (docs/operations.md, "Tenant sessions").
onSessionEvent((event) => metrics.addMetric(event === 'assumed' ? METRIC.tenantSessionsAssumed : METRIC.tenantSessionsRefused, MetricUnit.Count, 1));

/** Whether the authorizer's answer names the organization the whole request acts for: a keyed route's, or a public route's that says so. */
const authorizerNamesOrganization = (route: RouteDefinition) => route.auth !== 'none' || route.organizationSession === 'authorizer';

/**
 * A keyed route's whole request (its kept answers included) runs as the organization the authorizer named: every
 * AWS call it makes is signed for that organization alone, with its route's actions (shared/tenancy). So does a public
 * route's whose authorizer names the organization (the inbound post), its session held to the item the answer names.
 * Any other public route runs as its function's own role, one of the named exceptions (docs/data-model.md), until it
 * names the organization itself (actingForOrganization).
 */
function forItsOrganization(route: RouteDefinition, handler: RouteLambdaHandler): RouteLambdaHandler {
  if (!authorizerNamesOrganization(route)) return handler;
  const grant = sessionGrantOf(route);
  const grantName = routeId(route);
  return (event, context) => {
    const { organizationId, itemId } = event.requestContext?.authorizer ?? {};
    // No organization is answered by the chain (requireOrganization), signed as nobody's.
    if (typeof organizationId !== 'string' || !organizationId) return handler(event, context);
    const item = route.auth === 'none' && typeof itemId === 'string' && itemId ? { itemId } : {};
    return actingFor({ organizationId, grantName, grant, ...item }, () => handler(event, context));
  };
}

/**
 * What runs the rest of a public route's work as the organization it has just named (what a code or a refresh token
 * belongs to): signed with that organization's session, its route's actions on its keys alone. Only a route that
 * declares `organizationSession: 'function'` may (its function's role is admitted to the sessions): any other fails at
 * import. Its grant is made once, not per request.
 */
export function actingForOrganization(route: RouteDefinition): <T>(organizationId: string, work: () => Promise<T>) => Promise<T> {
  if (route.organizationSession !== 'function') throw new Error(`${route.operationId}: no organizationSession`);
  const [grantName, grant] = [routeId(route), sessionGrantOf(route)];
  return (organizationId, work) => actingFor({ organizationId, grantName, grant }, work);
}

function chainOf<R extends RouteRequest, S extends v.GenericSchema>(
  route: RouteDefinition<R, S>,
  handle: RouteHandle<R, S>,
  { keptAnswers, scope = (_event, run) => run(), asDomainError }: HandlerStorage,
): RouteLambdaHandler {
  const { path, query, body, bodyAsText } = route.request;
  // The body this chain parses and validates: none on a route that reads its body as text.
  const parsedBody = bodyAsText ? undefined : (body ?? (takesNoFields(route) ? NO_FIELDS : undefined));
  const chain = middy<APIGatewayProxyEvent, JsonResponse, Error, Context>()
    // Powertools first, so the Lambda context on every log line and the metrics flush span the whole request.
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(accessLog(route.operationId));
  if (keptAnswers && needsIdempotencyStore(route)) chain.use(keptAnswers());
  chain.use(errorEnvelope(asDomainError));
  // A credential whose own end has come (a key's expiry, a session's idle or absolute end, a token's life) is refused
  // from that moment, though the gateway's cached answer, made before, still lets it through.
  if (route.auth !== 'none') {
    chain.use({
      before: ({ event }) => {
        const { endsAt, challenge } = event.requestContext?.authorizer ?? {};
        if (typeof endsAt === 'string' && endsAt && Date.parse(endsAt) <= clock.now()) throw refusedUnrun(unauthorizedByFunction(typeof challenge === 'string' ? challenge : undefined));
      },
    });
  }
  // A token bound to another route's audience (an OAuth access token, for the MCP server alone) is refused here.
  if (route.auth !== 'none' && !route.tokenAudience) {
    chain.use({
      before: ({ event }) => {
        if (event.requestContext?.authorizer?.[AUDIENCE_BOUND] !== undefined) throw refusedUnrun(unauthorizedByFunction());
      },
    });
  }
  // A member's session is for the API's own routes: the MCP server's audience takes OAuth tokens and keys alone.
  if (route.auth !== 'none' && route.tokenAudience) {
    chain.use({
      before: ({ event }) => {
        if (memberSessionOf(event.requestContext?.authorizer)) throw refusedUnrun(unauthorizedByFunction());
      },
    });
  }
  if (route.auth !== 'none') chain.use(memberSessionChecks(route));
  const { admission } = route;
  const takesNoKey = route.idempotencyKey === false;
  if (admission || takesNoKey) {
    chain.use({
      before: ({ event }) => {
        const headers = lowerCasedHeaders(event);
        admission?.(headers);
        // A key it would not keep answers is refused rather than ignored: a retry with it would run twice.
        if (takesNoKey && headers[IDEMPOTENCY_HEADER.toLowerCase()] !== undefined) {
          throw new ValidationError([{ path: IDEMPOTENCY_HEADER, message: `${route.method} ${route.path} takes no ${IDEMPOTENCY_HEADER} header` }]);
        }
      },
    });
  }
  // A JSON body says so, whoever reads it; a route's own raw bodies (a form) are its function's to check.
  if (takesJsonBody(route)) chain.use(jsonContentTypeOnly());
  // Every body, JSON or a form the function reads itself, is measured before anything parses it.
  if (readsBody(route)) chain.use(bodySizeLimit(route.maxBodyBytes));
  if (parsedBody) chain.use(jsonBodyAsText()).use(absentBodyIsEmptyObject()).use(httpJsonBodyParser({ disableContentTypeCheck: true }));
  const knownQuery = new Set(Object.keys((query as { entries?: Record<string, unknown> } | undefined)?.entries ?? {}));
  // A loose query schema takes parameters it does not name, and ignores them (a public URL that must not refuse
  // before it has checked who is posting).
  const takesAnyQuery = (query as { type?: string } | undefined)?.type === 'loose_object';
  return chain.handler(async (event) => {
    if (!takesAnyQuery) refuseUnknownQuery(event.queryStringParameters, knownQuery, event.multiValueQueryStringParameters);
    const input = {
      path: path ? parseOrThrow(path, event.pathParameters ?? {}, 'path') : undefined,
      query: query ? parseOrThrow(query, event.queryStringParameters ?? {}, 'query') : undefined,
      body: parsedBody ? parseOrThrow(parsedBody, jsonObject(event.body), 'body') : undefined,
    } as Omit<HandlerInput<R>, 'organizationId' | 'scope'>;
    const organizationId = authorizerNamesOrganization(route) ? requireOrganization(event) : '';
    const keyScope = route.auth === 'none' ? null : scopeOf(event);
    const request = rawRequest(event);
    const answer = await scope(event, () => handle({ ...input, organizationId, scope: keyScope, request }));
    if (answer instanceof EmptyAnswer) return emptyResponse(answer.status, answer.headers);
    const [status, result, headers] = answer instanceof Answer ? [answer.status, answer.body, answer.headers] : [route.status, answer, {}];
    if (route.contentType) {
      const text = textResponse(status, route.contentType, result, route.cacheControl, request.headers['accept-encoding']);
      return { ...text, headers: { ...text.headers, ...headers } };
    }
    // A large JSON answer the function keeps goes gzipped to a client that accepts it.
    const response = result instanceof CompressibleJson ? textResponse(status, JSON_HEADERS['content-type'], result, route.cacheControl, request.headers['accept-encoding']) : jsonResponse(status, result);
    return { ...response, headers: { ...response.headers, ...headers } };
  });
}

/** Every request body of this API is a JSON object; an array, a scalar or nothing is refused as a whole. */
function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError([{ path: 'body', message: 'body must be a JSON object' }]);
  }
  return body as Record<string, unknown>;
}

/**
 * A query parameter the route does not take is refused, naming it: a filter the API does not have (`?email=`)
 * must not answer as if it had filtered. So is one given twice (`?status=NEW&status=LOST`): each takes one value, and
 * answering the last would list what the caller did not ask for.
 */
function refuseUnknownQuery(parameters: Record<string, string | undefined> | null, known: ReadonlySet<string>, multiValue: Record<string, string[] | undefined> | null): void {
  const unknown = Object.keys(parameters ?? {}).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new ValidationError(unknown.map((name) => ({ path: name, message: `${name} is not a query parameter of this operation` })));
  const repeated = Object.entries(multiValue ?? {}).filter(([, values]) => (values?.length ?? 0) > 1);
  if (repeated.length > 0) throw new ValidationError(repeated.map(([name]) => ({ path: name, message: `${name} must be given once` })));
}

/**
 * The key's scope from the authorizer's context. An answer cached from before scopes existed carries none: its key
 * could do everything, and the gateway let the request through on that policy. Anything else unknown reads as the
 * narrowest scope.
 */
function scopeOf(event: APIGatewayProxyEvent): ApiKeyScope {
  const scope: unknown = event.requestContext?.authorizer?.scope;
  if (scope === undefined) return DEFAULT_SCOPE;
  return isApiKeyScope(scope) ? scope : 'read';
}

function requireOrganization(event: APIGatewayProxyEvent): string {
  const organizationId: unknown = event.requestContext?.authorizer?.organizationId;
  if (typeof organizationId !== 'string' || !organizationId) throw new Error('Authorizer context has no organizationId');
  return organizationId;
}

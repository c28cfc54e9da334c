import { STATUS_CODES } from 'node:http';
import * as v from 'valibot';
import { someScopeRefuses } from '../auth/scopes';
import { PREFLIGHT_HEADERS } from '../http/cors';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '../http/gateway-responses';
import { errorEnvelope } from '../http/envelope';
import { keyReused } from '../http/idempotency';
import { authorizerOf, isIdempotent, takesNoFields, writesRecords, type OutgoingWebhook, type ResponseDoc, type RouteDefinition } from '../routes/route';
import type { OpenApiDocument } from './schemas';
import { badRequestExample, notFoundExample, type ErrorExample } from './error-examples';
import { convert, convertComponents, type JsonSchema } from './json-schema';

export const LOCAL_BASE_URL = 'http://localhost:3000';
const JSON_MEDIA_TYPE = 'application/json';
const SECURITY_SCHEME = 'apiKey';

type Json = Record<string, unknown>;

/** What the document describes: the route table, its tags, the named schemas it refers to and their examples. */
export interface ApiDescription {
  routes: readonly RouteDefinition[];
  /** Tag → its description, in the order the reference shows them; every route's tag must be one. */
  tags: Readonly<Record<string, string>>;
  /** Schemas named under components.schemas, referred to wherever the same schema object appears. */
  components: Readonly<Record<string, v.GenericSchema>>;
  /** An example per named schema. */
  examples: Readonly<Record<string, unknown>>;
  /** The document's title and its opening description (Markdown): what the API is, authentication, errors, limits. */
  info: { title: string; description: string };
  /** What the API POSTs to its subscribers (OpenAPI 3.1 `webhooks`), by name. */
  webhooks?: Readonly<Record<string, OutgoingWebhook>>;
}

/**
 * Error responses shared by many operations. The 400's, 404's and 409's examples differ by operation (each names
 * what that operation takes), so they are the operation's own, not the shared response's.
 */
const SHARED_ERRORS: Record<number, { name: string; description: string; example?: unknown; headers?: Json; appliesTo?: (route: RouteDefinition) => boolean }> = {
  400: {
    name: 'BadRequest',
    description: 'A path, query or body value failed validation, a query parameter the operation does not take was sent, or the body is not valid JSON. The message names the field or parameter.',
  },
  401: {
    name: 'Unauthorized',
    description: 'The bearer token is missing, invalid or expired.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED),
    headers: { 'WWW-Authenticate': { description: 'The scheme to authenticate with: `Bearer realm="sales-pipeline"`.', schema: { type: 'string', const: GATEWAY_RESPONSES.UNAUTHORIZED.headers['WWW-Authenticate'] } } },
  },
  403: {
    name: 'InsufficientScope',
    description: 'INSUFFICIENT_SCOPE: the API key’s scope does not allow this method. A `read` key may only GET; a `write` key may not DELETE; a `full` key may do everything.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.ACCESS_DENIED),
    // A route every scope reaches (POST /mcp) documents a 403 of its own and never this one.
    appliesTo: (route) => route.auth !== 'none' && someScopeRefuses(route.method, route.path),
  },
  404: {
    name: 'NotFound',
    description: 'No such record in the caller’s organization (a record of another organization is not found either), or no such route.',
  },
  409: {
    name: 'Conflict',
    description: 'A conflict with the organization’s records (a name or label already used, an attendee already booked), the record changed by other requests at the same time as often as the write was retried (CONFLICT: the change was not written; a retry, with the same Idempotency-Key too, runs again), or an Idempotency-Key used for another request (IDEMPOTENCY_KEY_REUSED) or still in progress (IDEMPOTENCY_IN_PROGRESS).',
  },
  413: {
    name: 'RequestTooLarge',
    description: 'The request body is larger than 256 KB (PAYLOAD_TOO_LARGE), or than the gateway accepts.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.REQUEST_TOO_LARGE),
  },
  429: {
    name: 'TooManyRequests',
    description:
      'RATE_LIMITED: the organization’s usage plan was exceeded, either its requests per second and burst or its daily quota (renewed at 00:00 UTC). Wait the Retry-After seconds before retrying.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.THROTTLED),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } },
  },
  500: {
    name: 'InternalError',
    description: 'An unexpected error; nothing internal is disclosed.',
    example: errorEnvelope(500, 'Internal server error', 'INTERNAL_ERROR'),
  },
  503: {
    name: 'AuthorizerUnavailable',
    description:
      'AUTHORIZER_UNAVAILABLE: the gateway could not check the request’s credential (the API key, or an inbound URL’s endpoint) because their store could not be read. Not the caller’s fault, and nothing ran: retry.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.AUTHORIZER_FAILURE),
  },
  504: {
    name: 'Timeout',
    description:
      'TIMEOUT: the operation did not answer within the gateway’s 29-second integration timeout. It may have taken effect: retry a POST or PATCH with the same Idempotency-Key to get its answer rather than run it twice.',
    example: gatewayResponseBody(GATEWAY_RESPONSES.INTEGRATION_TIMEOUT),
  },
};

const envelopeRef = { $ref: '#/components/schemas/ErrorEnvelope' };


const honoursIdempotencyKey = (route: RouteDefinition) => isIdempotent(route) && route.auth !== 'none';

const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first completed answer to this key is kept for 24 hours and sent again, with `Idempotent-Replayed: true`, to the same request. The same key on another request answers 409 IDEMPOTENCY_KEY_REUSED; while the first request runs, 409 IDEMPOTENCY_IN_PROGRESS. A 400, 413, 429 or 5xx is not kept, so a corrected retry runs; but a 502, the SMS provider’s answer to a message already recorded and perhaps sent, is kept, so a retry never texts the lead twice.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

/** Sent with every replayed answer of an operation that honours Idempotency-Key, so a client can tell a replay. */
const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: '`true` when this is the kept answer to an earlier request with the same Idempotency-Key, sent again; absent on the first answer.',
    schema: { type: 'string', const: 'true' },
  },
};

/** The key the document's IDEMPOTENCY_KEY_REUSED example names. */
const EXAMPLE_IDEMPOTENCY_KEY = 'order-7f3a9c-create';

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

function parameters(route: RouteDefinition): Json[] {
  const result: Json[] = [];
  const add = (where: 'path' | 'query', schema: v.GenericSchema | undefined) => {
    if (!schema) return;
    const object = convert(schema, 'output');
    const required = new Set(object.required ?? []);
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...propertySchema } = property as JsonSchema;
      result.push({ name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: propertySchema });
    }
  };
  add('path', route.request.path);
  const declared = new Set(result.map((parameter) => parameter.name));
  // A path template's parameter must be described even when the route does not validate it.
  for (const name of pathParameterNames(route.path)) {
    if (!declared.has(name)) result.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  add('query', route.request.query);
  if (honoursIdempotencyKey(route)) result.push(IDEMPOTENCY_PARAMETER);
  return [...result, ...headerParameters(route.requestHeaders)];
}

/** Request headers an operation reads, as header parameters, none required. */
const headerParameters = (headers: RouteDefinition['requestHeaders']): Json[] =>
  Object.entries(headers ?? {}).map(([name, { description, schema }]) => ({ name, in: 'header', required: false, description, schema }));

function mediaType(route: RouteDefinition): string {
  return (route.contentType ?? JSON_MEDIA_TYPE).split(';')[0]!.trim();
}

function examplesObject(examples: Record<string, unknown>): Record<string, { value: unknown }> {
  return Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }]));
}

function statusesOf(route: RouteDefinition): number[] {
  // Every operation refuses a query parameter it does not take (400), however few values it validates.
  const statuses = new Set([route.status, ...route.errors, ...Object.keys(route.responses ?? {}).map(Number), 400, 429, 500]);
  if (route.auth !== 'none') statuses.add(401);
  // A key whose scope does not allow the method is refused by the gateway (every scope may GET).
  if (route.auth !== 'none' && someScopeRefuses(route.method, route.path)) statuses.add(403);
  // A write that meets other requests' writes of the same records as often as it retries answers 409 CONFLICT.
  if (honoursIdempotencyKey(route) || writesRecords(route)) statuses.add(409);
  if (route.request.body || route.requestBodies || takesNoFields(route)) statuses.add(413);
  // Every authorizer can fail to read its store; every integration can outlive the gateway's timeout.
  if (authorizerOf(route)) statuses.add(503);
  statuses.add(504);
  return [...statuses].sort((a, b) => a - b);
}

/** Response headers by name and what each says, as OpenAPI header objects (text values). */
const headerObjects = (descriptions: Readonly<Record<string, string>>): Json =>
  Object.fromEntries(Object.entries(descriptions).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));

/** A response's documented headers (a redirect's Location), as OpenAPI header objects, and a replay's mark on a success. */
function headersOf(route: RouteDefinition, status: number, doc: ResponseDoc | undefined): Json {
  const headers: Json = headerObjects(doc?.headers ?? {});
  if (status < 300 && honoursIdempotencyKey(route)) Object.assign(headers, REPLAYED_HEADER);
  return Object.keys(headers).length ? { headers } : {};
}

/** Named examples of one response: an object per name, with its summary where it has one. */
type Examples = Record<string, { summary?: string; value: unknown }>;

const exampleOf = ({ summary, answer }: ErrorExample) => ({ summary, value: answer });

/** The 400 and 404 an operation's request schemas make, on its example body (a test sends each request and compares). */
function madeErrorExamples(route: RouteDefinition, body: unknown): { 400?: ErrorExample; 404?: ErrorExample } {
  return { 400: badRequestExample(route, body), 404: route.errors.includes(404) ? notFoundExample(route, body) : undefined };
}

/** The 400 and 404 examples the document shows on an operation, with the requests they answer. */
export const errorExamplesOfRoute = (route: RouteDefinition, api: Pick<ApiDescription, 'components' | 'examples'>) => madeErrorExamples(route, requestExampleOf(route, api));

/**
 * The error examples an operation shows that are its own answers: the 400 and 404 its request schemas make (see
 * error-examples.ts), and the 409 a reused Idempotency-Key gets, where it takes one.
 */
function errorExamplesOf(route: RouteDefinition, body: unknown): Record<number, Examples> {
  const { 400: badRequest, 404: notFound } = madeErrorExamples(route, body);
  const reused = honoursIdempotencyKey(route) ? keyReused(EXAMPLE_IDEMPOTENCY_KEY) : undefined;
  return {
    400: badRequest ? { BadRequest: exampleOf(badRequest) } : {},
    404: notFound ? { NotFound: exampleOf(notFound) } : {},
    409: reused
      ? { IdempotencyKeyReused: { summary: `${IDEMPOTENCY_PARAMETER.name} ${EXAMPLE_IDEMPOTENCY_KEY} sent before with another request`, value: errorEnvelope(reused.status, reused.message, reused.code) } }
      : {},
  };
}

function response(route: RouteDefinition, status: number, componentSchemas: ApiDescription['components'], own: Examples = {}): Json {
  const doc = route.responses?.[status];
  if (status === route.status) {
    const content: Json = { schema: convert(doc?.schema ?? route.response, 'answer', componentSchemas) };
    if (doc?.examples) content.examples = examplesObject(doc.examples);
    return { description: doc?.description ?? route.summary, ...headersOf(route, status, doc), content: { [mediaType(route)]: content } };
  }
  const shared = SHARED_ERRORS[status]?.appliesTo?.(route) === false ? undefined : SHARED_ERRORS[status];
  if (!doc && shared && Object.keys(own).length === 0) return { $ref: `#/components/responses/${shared.name}` };
  const description = doc?.description ?? shared?.description ?? STATUS_CODES[status] ?? `HTTP ${status}`;
  const headers = { ...(shared?.headers ? { headers: shared.headers } : {}), ...headersOf(route, status, doc) };
  if (doc?.empty) return { description, ...headers };
  if (doc?.schema) {
    const content: Json = { schema: convert(doc.schema, 'answer', componentSchemas) };
    if (doc.examples) content.examples = examplesObject(doc.examples);
    return { description, ...headers, content: { [JSON_MEDIA_TYPE]: content } };
  }
  // The shared example where there is one, the operation's own (made from its schemas, or written in its row) beside it.
  const examples: Examples = { ...(shared?.example !== undefined ? examplesObject({ [shared.name]: shared.example }) : {}), ...own, ...examplesObject(doc?.examples ?? {}) };
  const content: Json = { schema: envelopeRef };
  if (Object.keys(examples).length) content.examples = examples;
  return { description, ...headers, content: { [JSON_MEDIA_TYPE]: content } };
}

/** The one key of a `{<record>: …}` answer, the record's wrapper (`lead`), if the answer is one. */
function wrapperKey(schema: v.GenericSchema): string | undefined {
  const keys = Object.keys((schema as { entries?: Record<string, unknown> }).entries ?? {});
  return keys.length === 1 ? keys[0] : undefined;
}

/** The one key of a response whose value is a record with an id, beside other fields (`{message, sms}`). */
function recordKey(schema: v.GenericSchema): string | undefined {
  const entries = (schema as { entries?: Record<string, { entries?: Record<string, unknown> }> }).entries ?? {};
  const records = Object.keys(entries).filter((key) => entries[key]?.entries?.id !== undefined);
  return records.length === 1 ? records[0] : undefined;
}

/**
 * A create's links to what can be done with the record it made: the operations on the path below it whose one new
 * parameter is the record's id (`POST /v1/leads` → `getLead`, `updateLead`, `deleteLead` on `/v1/leads/{leadId}`).
 */
function linksOf(route: RouteDefinition, routes: readonly RouteDefinition[]): Json | undefined {
  const key = route.method === 'POST' ? (wrapperKey(route.response) ?? recordKey(route.response)) : undefined;
  if (!key) return undefined;
  const itemPath = new RegExp(`^${route.path.replace(/[{}]/g, '\\$&')}/\\{(\\w+)\\}$`);
  const links = routes.flatMap((candidate) => {
    const parameter = itemPath.exec(candidate.path)?.[1];
    if (!parameter || candidate.aliasOf) return [];
    const fromBody = { [parameter]: `$response.body#/${key}/id` };
    const fromPath = Object.fromEntries(pathParameterNames(route.path).map((name) => [name, `$request.path.${name}`]));
    return [[candidate.operationId, { operationId: candidate.operationId, parameters: { ...fromPath, ...fromBody }, description: candidate.summary }]];
  });
  return links.length ? Object.fromEntries(links) : undefined;
}

/**
 * A body to show with an operation: the route's own `requestExample`, else the fields of its record's example that
 * the body takes (`PATCH /v1/leads/{leadId}` shows the example lead's email, names, phone…), kept only if the body's
 * schema accepts it. A field the schema refuses as the record shows it (a null the body does not take) is left out.
 */
function requestExampleOf(route: RouteDefinition, api: Pick<ApiDescription, 'components' | 'examples'>): unknown {
  if (route.requestExample !== undefined) {
    // An example the API would refuse must not be shown: the document is not built with one.
    if (route.request.body && !v.safeParse(route.request.body, route.requestExample).success) throw new Error(`${route.operationId}: its requestExample is not a body the API accepts`);
    return route.requestExample;
  }
  const body = route.request.body;
  const key = body ? wrapperKey(route.response) : undefined;
  const record = key ? (route.response as unknown as { entries: Record<string, v.GenericSchema> }).entries[key] : undefined;
  const name = Object.entries(api.components).find(([, schema]) => schema === record)?.[0];
  const example = name ? (api.examples[name] as Record<string, unknown> | undefined) : undefined;
  const fields = Object.keys((body as { entries?: Record<string, unknown> } | undefined)?.entries ?? {});
  if (!body || !example || fields.length === 0) return undefined;
  let candidate = Object.fromEntries(fields.filter((field) => example[field] !== undefined && example[field] !== null).map((field) => [field, example[field]]));
  for (let attempt = 0; attempt < fields.length; attempt++) {
    const result = v.safeParse(body, candidate);
    if (result.success) return Object.keys(candidate).length > 0 ? candidate : undefined;
    const refused = new Set(result.issues.map((issue) => String(issue.path?.[0]?.key ?? '')));
    if (![...refused].some((field) => field in candidate)) return undefined;
    candidate = Object.fromEntries(Object.entries(candidate).filter(([field]) => !refused.has(field)));
  }
  return undefined;
}

function operation(route: RouteDefinition, components: ApiDescription['components'], routes: readonly RouteDefinition[] = [], examples: ApiDescription['examples'] = {}): Json {
  const op: Json = { operationId: route.operationId, summary: route.summary, description: route.description, tags: [route.tag] };
  if (route.auth === 'none') op.security = [];
  const params = parameters(route);
  if (params.length) op.parameters = params;
  const example = requestExampleOf(route, { components, examples });
  const bodies = route.request.body ? { [JSON_MEDIA_TYPE]: route.request.body } : route.requestBodies;
  if (bodies) {
    const content = Object.fromEntries(
      Object.entries(bodies).map(([type, schema]) => [type, { schema: convert(schema, 'input'), ...(example !== undefined && type === JSON_MEDIA_TYPE ? { example } : {}) }]),
    );
    op.requestBody = { required: true, content };
  }
  const own = errorExamplesOf(route, example);
  op.responses = Object.fromEntries(statusesOf(route).map((status) => [String(status), response(route, status, components, own[status])]));
  const links = linksOf(route, routes);
  if (links) op.responses = { ...(op.responses as Json), [String(route.status)]: { ...((op.responses as Json)[String(route.status)] as Json), links } };
  return op;
}

/** The headers of every Standard Webhooks message, with which the receiver verifies it (standardwebhooks.com). */
const STANDARD_WEBHOOKS_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id, the same on every attempt of one message: deduplicate on it. It is the first part of what is signed.',
    schema: { type: 'string', minLength: 1 },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in unix seconds. Refuse a message whose timestamp is more than 5 minutes from your clock (a replay).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated signatures `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per active secret (two while a rotated-out secret still signs), each keyed with the base64-decoded part of a `whsec_` secret after the prefix. Accept the message when one matches, compared in constant time; any Standard Webhooks library does this.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
];

/** The `webhooks` section: each outgoing webhook as the POST a receiver gets, signed with the Standard Webhooks headers. */
function webhooksSection(webhooks: NonNullable<ApiDescription['webhooks']>, components: ApiDescription['components']): Json {
  return Object.fromEntries(
    Object.entries(webhooks).map(([name, webhook]) => [
      name,
      {
        post: {
          operationId: webhook.operationId,
          summary: webhook.summary,
          description: webhook.description,
          tags: [webhook.tag],
          // The receiver needs no API key: the signature proves the sender.
          security: [],
          parameters: STANDARD_WEBHOOKS_HEADERS,
          requestBody: { required: true, content: { [JSON_MEDIA_TYPE]: { schema: convert(webhook.body, 'answer', components) } } },
          responses: Object.fromEntries(
            Object.entries(webhook.answers).map(([status, { description, headers }]) => [
              status,
              { description, ...(headers ? { headers: headerObjects(headers) } : {}) },
            ]),
          ),
        },
      },
    ]),
  );
}

/**
 * The CORS preflight of a route with `preflight` (OPTIONS on its path), which its function answers behind the same
 * authorizer: 204, with the CORS headers for an allowed origin asking to POST; 401 as the route itself for a wrong token.
 */
function preflightOperation(route: RouteDefinition): Json {
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
    description: `A browser asks before a page on another site sends \`${route.method} ${route.path}\` with JSON: answered 204, with the CORS headers when the page’s origin is allowed and it asks for ${route.method}, without them otherwise. The URL is asked as it is, token included, and the token is checked as on the ${route.method}.`,
    tags: [route.tag],
    security: [],
    parameters: [...pathAndQuery, ...headerParameters(asked)],
    responses,
  };
}

function componentsSection({ components, examples }: ApiDescription): Json {
  const schemas = convertComponents(components);
  for (const [name, example] of Object.entries(examples)) {
    if (schemas[name]) schemas[name] = { ...schemas[name], examples: [example as NonNullable<JsonSchema['default']>] };
  }
  const responses = Object.fromEntries(
    Object.values(SHARED_ERRORS).map(({ name, description, example, headers }) => [
      name,
      {
        description,
        ...(headers ? { headers } : {}),
        content: { [JSON_MEDIA_TYPE]: { schema: envelopeRef, ...(example === undefined ? {} : { examples: examplesObject({ [name]: example }) }) } },
      },
    ]),
  );
  return {
    schemas,
    responses,
    securitySchemes: {
      [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The organization’s API key, sent as `Authorization: Bearer <API key>`.' },
    },
  };
}

/**
 * The document's one server, `{base_url}`: by default the API that served the document; in the committed copy
 * (docs/openapi.json), which no request served, the local API.
 */
function serversOf(baseUrl: string | undefined): Json[] {
  return [
    {
      url: '{base_url}',
      description: 'The API: npm start serves it locally; deployed, it is the API stack’s output',
      variables: {
        base_url: {
          default: baseUrl ?? LOCAL_BASE_URL,
          description:
            baseUrl === undefined
              ? 'http://localhost:3000 for npm start; deployed, the API stack’s ApiUrl output, e.g. https://abc123.execute-api.ap-southeast-2.amazonaws.com/prod'
              : 'The API that served this document; another deployment’s base URL (its API stack’s ApiUrl output) to call that one.',
        },
      },
    },
  ];
}

/** The document as served from one base URL: the same, naming that API as its server. */
export const servedFrom = (document: OpenApiDocument, baseUrl: string): OpenApiDocument => ({ ...document, servers: serversOf(baseUrl) });

/** The OpenAPI 3.1 description of the API, generated from the route table and its valibot schemas. */
export function buildOpenApiDocument(api: ApiDescription): OpenApiDocument {
  const { routes } = api;
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (!(route.tag in api.tags)) throw new Error(`${route.operationId}: its tag ${route.tag} has no description`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, api.components, routes, api.examples);
    if (route.preflight) paths[route.path]!.options = preflightOperation(route);
  }
  for (const [name, webhook] of Object.entries(api.webhooks ?? {})) {
    if (!(webhook.tag in api.tags)) throw new Error(`webhook ${name}: its tag ${webhook.tag} has no description`);
  }
  const used = new Set([...routes.map((route) => route.tag), ...Object.values(api.webhooks ?? {}).map((webhook) => webhook.tag)]);
  const tags = Object.entries(api.tags)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
  return {
    openapi: '3.1.0',
    info: {
      title: api.info.title,
      version: '1.0.0',
      description: api.info.description,
      contact: { name: 'Sales Pipeline API team' },
      // Not open source: an SPDX reference to the terms the API is licensed under, not a public licence.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: serversOf(undefined),
    security: [{ [SECURITY_SCHEME]: [] }],
    tags,
    paths,
    ...(api.webhooks ? { webhooks: webhooksSection(api.webhooks, api.components) } : {}),
    components: componentsSection(api),
  };
}

/** docs/openapi.json as `npm run generate` writes it. */
export const OPENAPI_FILE = new URL('../../docs/openapi.json', import.meta.url);

export function serializeDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

import * as v from 'valibot';
import type { RouteDefinition } from '../routes/route';
import type { ApiDescription } from './document';
import { convert, type JsonSchema } from './json-schema';
import { securityOf } from './security';
import { errorExamplesOf, honoursIdempotencyKey, idempotencyParameter, JSON_MEDIA_TYPE, madeErrorExamples, response, statusesOf, takesSession, type Json } from './responses';

// One operation of the document: its parameters, request body and example, responses and links.

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

export function parameters(route: RouteDefinition, idempotencyKey?: Json): Json[] {
  const result: Json[] = [];
  const add = (where: 'path' | 'query', schema: v.GenericSchema | undefined) => {
    if (!schema) return;
    const object = convert(schema, 'output', undefined, where);
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
  if (idempotencyKey && honoursIdempotencyKey(route)) result.push(idempotencyKey);
  return [...result, ...headerParameters(route.requestHeaders)];
}

/** Request headers an operation reads, as header parameters, none required. */
export const headerParameters = (headers: RouteDefinition['requestHeaders']): Json[] =>
  Object.entries(headers ?? {}).map(([name, { description, schema }]) => ({ name, in: 'header', required: false, description, schema }));

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

/** The 400 and 404 examples the document shows on an operation, with the requests they answer. */
export const errorExamplesOfRoute = (route: RouteDefinition, api: Pick<ApiDescription, 'components' | 'examples'>) => madeErrorExamples(route, requestExampleOf(route, api));

export function operation(route: RouteDefinition, api: ApiDescription): Json {
  const { components, routes, examples } = api;
  const op: Json = { operationId: route.operationId, summary: route.summary, description: route.description, tags: [route.tag], security: securityOf(route) };
  // The least role a member's session needs, which the gateway holds a session to (a key is held to its scope).
  if (takesSession(route)) op['x-session-role'] = route.sessionRole ?? 'MEMBER';
  const params = parameters(route, idempotencyParameter(api.idempotencyKey));
  if (params.length) op.parameters = params;
  const example = requestExampleOf(route, { components, examples });
  const bodies = route.request.body ? { [JSON_MEDIA_TYPE]: route.request.body } : route.requestBodies;
  if (bodies) {
    const content = Object.fromEntries(
      Object.entries(bodies).map(([type, schema]) => [type, { schema: convert(schema, 'input', undefined, type === JSON_MEDIA_TYPE ? 'body' : `body (${type})`), ...(example !== undefined && type === JSON_MEDIA_TYPE ? { example } : {}) }]),
    );
    op.requestBody = { required: true, content };
  }
  const own = errorExamplesOf(route, example);
  op.responses = Object.fromEntries(statusesOf(route).map((status) => [String(status), response(route, status, components, own[status])]));
  const links = linksOf(route, routes);
  if (links) op.responses = { ...(op.responses as Json), [String(route.status)]: { ...((op.responses as Json)[String(route.status)] as Json), links } };
  return op;
}

import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from '../../../shared/openapi/schemas';
import type { RouteDefinition } from '../../../shared/routes/route';
import { OPTIONAL_TEXT_RULE, TEXT_RULE } from '../../../shared/schema';
import { EVENT_TYPES } from '../../../functions/events/types';
import { buildDocument } from '../../../functions/meta/document';
import { routes } from '../../../functions/resources';

/**
 * The n8n node's description, generated from the route table and the OpenAPI document it builds, and the trigger's
 * event types, from the generated list of them: `npm run generate` writes both as JSON beside the nodes, which read
 * them, and a test fails while either is stale. Every keyed route is one operation, grouped by its tag (the API
 * reference's groups); its path parameters, query parameters and body fields are the operation's fields.
 */

type Json = Record<string, any>;

/** What the action node sends for one operation: read by SalesPipeline.node.ts's execute. */
export interface OperationRequest {
  method: RouteDefinition['method'];
  path: string;
  /** Path parameters, each a required field of the operation. */
  pathParams: string[];
  /** Query parameters: required ones are fields of their own, the others are under Filters (GET) or Options. */
  query: { required: string[]; optional: string[] };
  /** The body's fields (required ones on their own, the others under Additional Fields or Update Fields), or one JSON field `body`. */
  body: { required: string[]; optional: string[] } | 'json' | null;
  /** Fields whose value is JSON text (arrays and objects), parsed before they are sent. */
  json: string[];
  /** A list: its items' key in the answer; the operation walks `nextCursor` with Return All. */
  list?: string;
}

/** Parameter names the node keeps for itself: a route field with one of these names is sent in the body's JSON instead. */
const RESERVED = new Set(['resource', 'operation', 'returnAll', 'limit', 'filters', 'options', 'additionalFields', 'updateFields', 'body']);

/** Pagination's own query parameters: the node sets them (Return All and Limit). */
const PAGING = new Set(['page', 'cursor', 'limit']);

/** The routes an API key calls, without the PATCH aliases of PUTs (the same request) and the MCP server's own. */
export const keyedRoutes = (all: readonly RouteDefinition[] = routes) => all.filter((route) => route.auth !== 'none' && !route.path.startsWith('/mcp') && route.aliasOf === undefined);

/** `Audit log` → `auditLog`: a resource's value, from its tag. */
export const resourceValue = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+(.)/g, (_, letter: string) => letter.toUpperCase());

const ACRONYMS = new Set(['id', 'url', 'sms', 'faq', 'api', 'ai', 'utc', 'ids', 'urls']);

/** `leadId` → `Lead ID`, `smsSenderId` → `SMS Sender ID`: a field's display name in n8n's Title Case. */
export function displayName(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').split(' ').filter(Boolean);
  return words.map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase().replace(/^IDS$/, 'IDs').replace(/^URLS$/, 'URLs') : word[0]!.toUpperCase() + word.slice(1))).join(' ');
}

/** The first sentence of a description, which n8n shows under the field. */
function firstSentence(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  // The free-text rule every text field states says nothing a field's own description should.
  const plain = text.replace(TEXT_RULE, '').replace(OPTIONAL_TEXT_RULE, '').replace(/`/g, '').replace(/\s+/g, ' ').trim();
  if (!plain) return undefined;
  const end = plain.search(/\.(\s|$)/);
  const sentence = end === -1 ? plain : plain.slice(0, end + 1);
  return sentence.length > 300 ? `${sentence.slice(0, 297)}…` : sentence;
}

function resolve(schema: Json, components: Record<string, Json>): Json {
  return typeof schema.$ref === 'string' ? resolve(components[schema.$ref.slice('#/components/schemas/'.length)]!, components) : schema;
}

/** A schema's one non-null shape: `anyOf [X, null]` is X. */
function nonNull(schema: Json, components: Record<string, Json>): Json {
  const resolved = resolve(schema, components);
  const options = (resolved.anyOf ?? resolved.oneOf) as Json[] | undefined;
  if (options) {
    const kept = options.map((option) => resolve(option, components)).filter((option) => option.type !== 'null');
    if (kept.length === 1) return { ...kept[0], description: resolved.description ?? kept[0]!.description };
  }
  return resolved;
}

/** A field of the node for one parameter or body field, typed from its schema. */
function fieldOf(name: string, schema: Json, components: Record<string, Json>, required: boolean, description?: string): Json {
  const shape = nonNull(schema, components);
  const said = firstSentence(description ?? shape.description);
  const base = { displayName: displayName(name), name, ...(said ? { description: said } : {}), ...(required ? { required: true } : {}) };
  const values = shape.enum as unknown[] | undefined;
  if (values && values.every((value) => typeof value === 'string')) {
    const options = (values as string[]).map((value) => ({ name: value, value }));
    return { ...base, type: 'options', options, default: shape.default ?? (required ? values[0] : '') };
  }
  const type = Array.isArray(shape.type) ? shape.type.find((t: string) => t !== 'null') : shape.type;
  if (type === 'string') return { ...base, type: 'string', default: typeof shape.default === 'string' ? shape.default : '' };
  if (type === 'integer' || type === 'number') {
    const typeOptions = { ...(typeof shape.minimum === 'number' ? { minValue: shape.minimum } : {}), ...(typeof shape.maximum === 'number' && shape.maximum < 2 ** 31 - 1 ? { maxValue: shape.maximum } : {}), ...(type === 'integer' ? { numberPrecision: 0 } : {}) };
    return { ...base, type: 'number', ...(Object.keys(typeOptions).length ? { typeOptions } : {}), default: typeof shape.default === 'number' ? shape.default : (shape.minimum ?? 0) };
  }
  if (type === 'boolean') return { ...base, type: 'boolean', default: typeof shape.default === 'boolean' ? shape.default : false };
  return { ...base, type: 'json', default: shape.type === 'array' ? '[]' : '{}' };
}

const byName = (a: Json, b: Json) => String(a.displayName).localeCompare(String(b.displayName));

/** The operation's fields and its request, from the route's operation in the document. */
function operationOf(document: OpenApiDocument, route: RouteDefinition, resource: string) {
  const components = ((document as Json).components?.schemas ?? {}) as Record<string, Json>;
  const operation = (document.paths[route.path] as Json)[route.method.toLowerCase()] as Json;
  const show = { resource: [resource], operation: [route.operationId] };
  const fields: Json[] = [];
  const request: OperationRequest = { method: route.method, path: route.path, pathParams: [], query: { required: [], optional: [] }, body: null, json: [] };
  const success = operation.responses?.[String(route.status)]?.content?.['application/json']?.schema as Json | undefined;
  const answer = success && resolve(success, components);
  const parameters = (operation.parameters ?? []) as Json[];
  const listKey = answer?.properties && 'nextCursor' in answer.properties && parameters.some((p) => p.in === 'query' && p.name === 'cursor') ? Object.keys(answer.properties).find((key) => answer.properties[key].type === 'array') : undefined;
  if (listKey) request.list = listKey;
  const optionalQuery: Json[] = [];
  for (const parameter of parameters) {
    if (parameter.in === 'path') {
      fields.push({ ...fieldOf(parameter.name, parameter.schema, components, true, parameter.description), displayOptions: { show } });
      request.pathParams.push(parameter.name);
    } else if (parameter.in === 'query') {
      if (listKey && PAGING.has(parameter.name)) continue;
      if (parameter.required) {
        if (RESERVED.has(parameter.name)) throw new Error(`${route.operationId}'s required query parameter ${parameter.name} has a name the n8n node keeps for itself`);
        fields.push({ ...fieldOf(parameter.name, parameter.schema, components, true, parameter.description), displayOptions: { show } });
        request.query.required.push(parameter.name);
      } else {
        optionalQuery.push(fieldOf(parameter.name, parameter.schema, components, false, parameter.description));
        request.query.optional.push(parameter.name);
      }
    }
  }
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema as Json | undefined;
  let optionalBody: Json[] = [];
  if (bodySchema) {
    const body = resolve(bodySchema, components);
    const taken = new Set([...request.pathParams, ...request.query.required, ...request.query.optional]);
    const own = body.type === 'object' && body.properties && !body.oneOf && !body.anyOf && Object.keys(body.properties).every((name) => !taken.has(name) && !RESERVED.has(name));
    if (own) {
      const required = new Set((body.required ?? []) as string[]);
      const names = Object.keys(body.properties);
      request.body = { required: names.filter((name) => required.has(name)), optional: names.filter((name) => !required.has(name)) };
      for (const name of request.body.required) fields.push({ ...fieldOf(name, body.properties[name], components, true), displayOptions: { show } });
      optionalBody = request.body.optional.map((name) => fieldOf(name, body.properties[name], components, false));
    } else {
      request.body = 'json';
      fields.push({ displayName: 'Body', name: 'body', type: 'json', required: !!operation.requestBody.required, default: '{}', description: firstSentence(operation.requestBody.description ?? body.description) ?? 'The request body, as JSON.', displayOptions: { show } });
    }
  }
  request.json = [...fields, ...optionalQuery, ...optionalBody].filter((field) => field.type === 'json' && field.name !== 'body').map((field) => field.name as string);
  if (listKey) {
    fields.push({ displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false, description: 'Whether to return all results or only up to a given limit', displayOptions: { show } });
    fields.push({ displayName: 'Limit', name: 'limit', type: 'number', typeOptions: { minValue: 1, maxValue: 100 }, default: 50, description: 'Max number of results to return', displayOptions: { show: { ...show, returnAll: [false] } } });
  }
  if (optionalQuery.length) fields.push({ displayName: route.method === 'GET' ? 'Filters' : 'Options', name: route.method === 'GET' ? 'filters' : 'options', type: 'collection', placeholder: route.method === 'GET' ? 'Add Filter' : 'Add Option', default: {}, displayOptions: { show }, options: optionalQuery.sort(byName) });
  if (optionalBody.length) {
    const update = route.method === 'PATCH' || route.method === 'PUT';
    fields.push({ displayName: update ? 'Update Fields' : 'Additional Fields', name: update ? 'updateFields' : 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: { show }, options: optionalBody.sort(byName) });
  }
  return { fields, request };
}

/** The action node's resources, operations and fields, and each operation's request, by operationId. */
export function nodeDescription(document: OpenApiDocument = buildDocument(), all: readonly RouteDefinition[] = routes) {
  const keyed = keyedRoutes(all);
  const tags = [...new Set(keyed.map((route) => route.tag))];
  const properties: Json[] = [
    { displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true, options: tags.map((tag) => ({ name: tag, value: resourceValue(tag) })).sort((a, b) => a.name.localeCompare(b.name)), default: resourceValue(tags[0]!) },
  ];
  const fields: Json[] = [];
  const requests: Record<string, OperationRequest> = {};
  for (const tag of tags) {
    const resource = resourceValue(tag);
    const ofTag = keyed.filter((route) => route.tag === tag);
    properties.push({
      displayName: 'Operation',
      name: 'operation',
      type: 'options',
      noDataExpression: true,
      displayOptions: { show: { resource: [resource] } },
      options: ofTag.map((route) => ({ name: route.summary, value: route.operationId, action: route.summary, description: `${route.method} ${route.path}` })).sort((a, b) => a.name.localeCompare(b.name)),
      default: ofTag[0]!.operationId,
    });
    for (const route of ofTag) {
      const { fields: own, request } = operationOf(document, route, resource);
      fields.push(...own);
      requests[route.operationId] = request;
    }
  }
  return { properties: [...properties, ...fields], requests };
}

/** The trigger's event types, each with the name n8n shows: `lead.note_added` → `Lead Note Added`. */
export const triggerEvents = (types: readonly string[] = EVENT_TYPES) => ({ events: types.map((type) => ({ name: displayName(type.replace(/[._]/g, ' ')), value: type })) });

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The files generated for the n8n node, with their content now. */
export function n8nFiles(): { path: URL; content: string }[] {
  return [
    { path: new URL('../nodes/SalesPipeline/operations.json', import.meta.url), content: json(nodeDescription()) },
    { path: new URL('../nodes/SalesPipelineTrigger/events.json', import.meta.url), content: json(triggerEvents()) },
  ];
}

const read = (path: URL) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The n8n node's generated files whose committed content is not what the route table and event types generate now. */
export const staleN8nFiles = () => n8nFiles().filter(({ path, content }) => read(path) !== content);

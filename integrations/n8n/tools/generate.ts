import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from '../../../shared/openapi/schemas';
import type { RouteDefinition } from '../../../shared/routes/route';
import { OPTIONAL_TEXT_RULE, TEXT_RULE } from '../../../shared/schema';
import { describeOperation, labeller, nonNull, RESERVED_FIELD_NAMES, type OperationField } from '../../../shared/openapi/fields';
import { EVENT_TYPES } from '../../../functions/events/types';
import { buildDocument } from '../../../functions/meta/document';
import { routes } from '../../../functions/resources';
import type { OperationRequest } from '../nodes/SalesPipeline/request';

/**
 * The n8n node's description, generated from the route table and the OpenAPI document it builds, and the trigger's
 * event types, from the generated list of them: `npm run generate` writes both as JSON beside the nodes, which read
 * them, and a test fails while either is stale. Every keyed route is one operation, grouped by its tag (the API
 * reference's groups); its path parameters, query parameters and body fields are the operation's fields.
 */

type Json = Record<string, any>;

/** The routes an API key calls, without the PATCH aliases of PUTs (the same request) and the MCP server's own. */
export const keyedRoutes = (all: readonly RouteDefinition[] = routes) => all.filter((route) => route.auth !== 'none' && !route.path.startsWith('/mcp') && route.aliasOf === undefined && !route.sessionOnly);

/** `Audit log` → `auditLog`: a resource's value, from its tag. */
export const resourceValue = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+(.)/g, (_, letter: string) => letter.toUpperCase());

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

/** A field of the node for one field of the operation, typed from its schema. */
function propertyOf(field: OperationField, components: Record<string, Json>): Json {
  const shape = nonNull(field.schema, components);
  const said = firstSentence(field.description ?? shape.description);
  const base = { displayName: field.label, name: field.name, ...(said ? { description: said } : {}), ...(field.required ? { required: true } : {}) };
  const values = shape.enum as unknown[] | undefined;
  if (values && values.every((value) => typeof value === 'string')) {
    const options = (values as string[]).map((value) => ({ name: value, value }));
    return { ...base, type: 'options', options, default: shape.default ?? (field.required ? values[0] : '') };
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

/** The operation's properties and its request, from the route's fields (shared/openapi/fields.ts). */
function operationOf(document: OpenApiDocument, route: RouteDefinition, resource: string) {
  const { fields: described, body, components, list } = describeOperation(document, route);
  const show = { resource: [resource], operation: [route.operationId] };
  const own = (field: OperationField) => ({ ...propertyOf(field, components), displayOptions: { show } });
  const fields: Json[] = [];
  const request: OperationRequest = { method: route.method, path: route.path, pathParams: [], query: { required: [], optional: [] }, body: null, json: [] };
  if (list) request.list = list;
  const optionalQuery: Json[] = [];
  const optionalBody: Json[] = [];
  for (const field of described) {
    if (field.paging) continue;
    if (field.in === 'path') {
      fields.push(own(field));
      request.pathParams.push(field.name);
    } else if (field.in === 'query' && field.required) {
      if (RESERVED_FIELD_NAMES.has(field.name)) throw new Error(`${route.operationId}'s required query parameter ${field.name} has a name the n8n node keeps for itself`);
      fields.push(own(field));
      request.query.required.push(field.name);
    } else if (field.in === 'query') {
      optionalQuery.push(propertyOf(field, components));
      request.query.optional.push(field.name);
    } else {
      request.body = request.body && request.body !== 'json' ? request.body : { required: [], optional: [] };
      request.body[field.required ? 'required' : 'optional'].push(field.name);
      if (field.required) fields.push(own(field));
      else optionalBody.push(propertyOf(field, components));
    }
  }
  if (body && 'whole' in body) {
    request.body = 'json';
    fields.push({ displayName: 'Body', name: 'body', type: 'json', required: body.required, default: '{}', description: firstSentence(body.description) ?? 'The request body, as JSON.', displayOptions: { show } });
  } else if (body && !request.body) request.body = { required: [], optional: [] };
  request.json = [...fields, ...optionalQuery, ...optionalBody].filter((field) => field.type === 'json' && field.name !== 'body').map((field) => field.name as string);
  if (list) {
    fields.push({ displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false, description: 'Whether to return all results or only up to a given limit', displayOptions: { show } });
    fields.push({ displayName: 'Limit', name: 'limit', type: 'number', typeOptions: { minValue: 1, maxValue: 100 }, default: 50, description: 'Max number of results to return', displayOptions: { show: { ...show, returnAll: [false] } } });
  }
  if (optionalQuery.length) {
    const read = route.method === 'GET';
    fields.push({ displayName: read ? 'Filters' : 'Options', name: read ? 'filters' : 'options', type: 'collection', placeholder: read ? 'Add Filter' : 'Add Option', default: {}, displayOptions: { show }, options: optionalQuery.sort(byName) });
  }
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
export const triggerEvents = (types: readonly string[] = EVENT_TYPES, document: OpenApiDocument = buildDocument()) => {
  const label = labeller(document);
  return { events: types.map((type) => ({ name: label(type.replace(/[._]/g, ' ')), value: type })) };
};

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The files generated for the n8n node, with their content now. */
export function n8nFiles(): { path: URL; content: string }[] {
  const document = buildDocument();
  return [
    { path: new URL('../nodes/SalesPipeline/operations.json', import.meta.url), content: json(nodeDescription(document)) },
    { path: new URL('../nodes/SalesPipelineTrigger/events.json', import.meta.url), content: json(triggerEvents(EVENT_TYPES, document)) },
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

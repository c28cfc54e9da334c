import type { RouteDefinition } from '../routes/route';
import type { OpenApiDocument } from './schemas';

/**
 * A route's operation as the fields a person or an agent fills in: its path and query parameters and its body's fields,
 * each with its label, and samples of its answer from the document's examples. The MCP tools, the n8n node and the
 * Zapier app are each a thin shape over this one description, so they name and label a field alike.
 */

/** A JSON Schema as the document writes it. */
export type JsonSchema = Record<string, any>;

/** One field of an operation. */
export interface OperationField {
  name: string;
  in: 'path' | 'query' | 'body';
  required: boolean;
  /** Its schema as the document writes it: references to components kept. */
  schema: JsonSchema;
  description?: string;
  label: string;
  /** `page`, `cursor` and `limit` of a list walked by its cursor: an integration may walk it itself. */
  paging?: true;
}

/** A body whose fields are the operation's, with its rules across fields (`oneOf`, `dependentRequired`…); or one taken whole as `body`. */
export type OperationBody = { fields: string[]; rules: JsonSchema } | { whole: JsonSchema; required: boolean; description?: string } | null;

export interface OperationDescription {
  route: RouteDefinition;
  /** The operation as the document writes it. */
  operation: JsonSchema;
  components: Record<string, JsonSchema>;
  fields: OperationField[];
  body: OperationBody;
  /** The schema of its success answer. */
  success?: JsonSchema;
  /** A list walked by `nextCursor`: the key of its items in the answer. */
  list?: string;
}

/**
 * Names no body field may take and stay a field of its own: the arguments the integrations add themselves (the MCP
 * tools' `idempotencyKey`, the n8n node's resource, operation, paging and collections). A body with one is taken whole.
 */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set(['idempotencyKey', 'resource', 'operation', 'returnAll', 'limit', 'filters', 'options', 'additionalFields', 'updateFields', 'body']);

/** Pagination's own query parameters. */
const PAGING = new Set(['page', 'cursor', 'limit']);

const COMPONENTS = '#/components/schemas/';

/** The components of a document. */
export const componentsOf = (document: OpenApiDocument): Record<string, JsonSchema> => ((document as JsonSchema).components?.schemas ?? {}) as Record<string, JsonSchema>;

/** A schema with its `$ref` followed, transitively. */
export function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  return typeof schema.$ref === 'string' ? resolve(components[schema.$ref.slice(COMPONENTS.length)]!, components) : schema;
}

/** A schema's one non-null shape (`anyOf [X, null]` is X), its description kept. */
export function nonNull(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const resolved = resolve(schema, components);
  const options = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (options) {
    const kept = options.map((option) => resolve(option, components)).filter((option) => option.type !== 'null');
    if (kept.length === 1) return { ...kept[0], description: resolved.description ?? kept[0]!.description };
  }
  return resolved;
}

/** The properties, required names and cross-field rules of an object schema (its `$ref` followed). */
export function objectParts(schema: JsonSchema, components: Record<string, JsonSchema>) {
  const resolved = schema.$ref ? components[String(schema.$ref).slice(COMPONENTS.length)]! : schema;
  if (resolved.type !== 'object' || !resolved.properties) return undefined;
  const { type: _type, properties, required = [], additionalProperties: _closed, ...rules } = resolved;
  return { properties: properties as Record<string, JsonSchema>, required: required as string[], rules: rules as JsonSchema };
}

/** Words a label writes as they are spelled, not capitalized: those of every API. */
const SPELLED: Readonly<Record<string, string>> = { id: 'ID', ids: 'IDs', url: 'URL', urls: 'URLs', api: 'API', ai: 'AI', utc: 'UTC' };

/**
 * Labels in Title Case with acronyms spelled as words of their own (`leadId` → `Lead ID`, `memberIds` → `Member IDs`):
 * besides every API's (ID, URL…), the words the document's groups spell with inner capitals, each also in the singular
 * (`SMS`, `FAQs` and `FAQ`, `OAuth`), so `smsSenderId` is `SMS Sender ID` as the reference writes it.
 */
export function labeller(document: OpenApiDocument): (name: string) => string {
  const spelled: Record<string, string> = { ...SPELLED };
  for (const { name } of ((document as JsonSchema).tags ?? []) as { name: string }[]) {
    for (const word of name.split(/\s+/).filter((word) => /[A-Z]/.test(word.slice(1)))) {
      spelled[word.toLowerCase()] = word;
      spelled[word.replace(/s$/, '').toLowerCase()] = word.replace(/s$/, '');
    }
  }
  return (name) =>
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_.-]+/g, ' ')
      .split(' ')
      .filter(Boolean)
      .map((word) => spelled[word.toLowerCase()] ?? word[0]!.toUpperCase() + word.slice(1))
      .join(' ');
}

/** A route's operation in the document. */
export const operationOf = (document: OpenApiDocument, route: RouteDefinition): JsonSchema => (document.paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()]!;

/** The fields, body and answer of a route's operation. */
export function describeOperation(document: OpenApiDocument, route: RouteDefinition): OperationDescription {
  const components = componentsOf(document);
  const operation = operationOf(document, route);
  const fieldLabel = labeller(document);
  const parameters = ((operation.parameters ?? []) as JsonSchema[]).filter((parameter) => parameter.in === 'path' || parameter.in === 'query');
  const success: JsonSchema | undefined = operation.responses?.[String(route.status)]?.content?.['application/json']?.schema;
  const answer = success && resolve(success, components);
  const walked = answer?.properties && 'nextCursor' in answer.properties && parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'cursor');
  const list = walked ? Object.keys(answer.properties).find((key) => answer.properties[key].type === 'array') : undefined;
  const fields: OperationField[] = parameters.map((parameter) => ({
    name: parameter.name,
    in: parameter.in,
    required: parameter.in === 'path' || parameter.required === true,
    schema: parameter.schema,
    ...(parameter.description ? { description: parameter.description } : {}),
    label: fieldLabel(parameter.name),
    ...(list && parameter.in === 'query' && PAGING.has(parameter.name) ? { paging: true as const } : {}),
  }));
  let body: OperationBody = null;
  const bodySchema: JsonSchema | undefined = operation.requestBody?.content?.['application/json']?.schema;
  if (bodySchema) {
    const parts = objectParts(bodySchema, components);
    const taken = new Set(fields.map((field) => field.name));
    if (parts && Object.keys(parts.properties).every((name) => !taken.has(name) && !RESERVED_FIELD_NAMES.has(name))) {
      const required = new Set(parts.required);
      for (const [name, schema] of Object.entries(parts.properties)) fields.push({ name, in: 'body', required: required.has(name), schema, label: fieldLabel(name) });
      body = { fields: Object.keys(parts.properties), rules: parts.rules };
    } else {
      const description = operation.requestBody.description ?? resolve(bodySchema, components).description;
      body = { whole: bodySchema, required: operation.requestBody.required === true, ...(description ? { description } : {}) };
    }
  }
  return { route, operation, components, fields, body, ...(success ? { success } : {}), ...(list ? { list } : {}) };
}

/** What the document's examples say a value of the schema is: every `$ref` to a named schema replaced by its first example. */
export function sampleOf(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): unknown {
  if (!schema) return undefined;
  if (schema.$ref) {
    const named = components[String(schema.$ref).split('/').pop()!]!;
    return named.examples?.[0] ?? sampleOf(named, components);
  }
  if (schema.examples?.[0] !== undefined) return schema.examples[0];
  if (schema.anyOf) return sampleOf((schema.anyOf as JsonSchema[]).find((option) => option.type !== 'null'), components);
  if (schema.oneOf) return sampleOf(schema.oneOf[0], components);
  if (schema.type === 'array') return [sampleOf(schema.items, components)].filter((item) => item !== undefined);
  if (schema.type === 'object' && schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties as Record<string, JsonSchema>).flatMap(([name, property]) => {
        const value = sampleOf(property, components);
        return value === undefined ? [] : [[name, value]];
      }),
    );
  }
  return undefined;
}

import * as v from 'valibot';
import { ApiError } from '../errors';
import { errorEnvelope, type ErrorEnvelope } from '../http/envelope';
import type { RouteDefinition } from '../routes/route';
import { parseOrThrow } from '../validation';
import { convert, type JsonSchema } from './json-schema';

/**
 * The 400 and 404 examples of an operation, made from its own request schemas: a request with one value wrong, and
 * the answer the API's validation gives it, computed by the same parse the handler runs. So an example names only a
 * parameter or field the operation takes, and is the answer the operation gives; where no such request exists (an
 * operation that takes nothing but ids, whose malformed id answers 404), the operation shows no 400 example.
 */

/** The values a request sends in place of valid ones: path parameters not named here are the caller's own. */
export interface ExampleRequest {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface ErrorExample {
  /** What the request sends wrong: the example's summary. */
  summary: string;
  /** The one value sent wrong: its part of the request and its name there. */
  wrong: { part: Part; field: string };
  request: ExampleRequest;
  answer: ErrorEnvelope;
}

export type Part = 'path' | 'query' | 'body';
type Json = Record<string, any>;

/** The body the API answers an error with (ErrorEnvelope), as it is serialized. */
const envelopeOf = (error: ApiError): ErrorEnvelope => JSON.parse(JSON.stringify(errorEnvelope(error.status, error.message, error.code, error.details))) as ErrorEnvelope;

/** What the handler's parse of a request part answers, or undefined when it takes the value. */
function refusal(schema: v.GenericSchema, input: unknown, where: Part): ApiError | undefined {
  try {
    parseOrThrow(schema, input, where);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** The properties of an object schema as the document states them (of its first variant, for a union of objects). */
function propertiesOf(schema: v.GenericSchema | undefined, part: Part): Array<[string, Json]> {
  if (!schema) return [];
  const converted = convert(schema, part === 'body' ? 'input' : 'output', undefined, part) as Json;
  const object = converted.properties ? converted : (converted.oneOf ?? converted.anyOf)?.[0];
  return Object.entries((object?.properties ?? {}) as Record<string, Json>);
}

/** A value's schema without its `null` alternative (a nullable field). */
const nonNull = (schema: Json): Json => (schema.anyOf as Json[] | undefined)?.find((branch) => branch.type !== 'null') ?? schema;

/**
 * Values a field's schema refuses, most telling first: below a minimum, over a length or a maximum, outside an
 * enumeration, of another type. A path or query value is text, so only what its text can get wrong.
 */
function wrongValues(property: Json, part: Part): unknown[] {
  const schema = nonNull(property);
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const values: unknown[] = [];
  if (numeric && typeof schema.minimum === 'number') values.push(schema.minimum - 1);
  if (schema.type === 'string' && typeof schema.maxLength === 'number') values.push('x'.repeat(schema.maxLength + 1));
  if (numeric && typeof schema.maximum === 'number') values.push(schema.maximum + 1);
  if (Array.isArray(schema.enum) || schema.const !== undefined) values.push('UNKNOWN');
  if (schema.type !== 'string') values.push('text');
  else if (part === 'body') values.push(12345);
  return part === 'body' ? values : values.map(String);
}

/** `name: "xxx…" (201 characters)`: what a wrong value looks like in a summary. */
function shown(value: unknown): string {
  if (typeof value === 'string' && value.length > 20) return `"${value.slice(0, 3)}…" (${value.length} characters)`;
  return JSON.stringify(value);
}

const WHERE: Record<Part, string> = { path: 'in the path', query: 'in the query', body: 'in the body' };

/** Whether every detail of a 400 names a field of the part it was made for. */
const namesOnly = (error: ApiError, fields: ReadonlySet<string>) => error.status === 400 && (error.details ?? []).every((detail) => fields.has(detail.path.split('.')[0]!));

/** One request part with one field set to a value, parsed as the handler parses that part. */
function attempt(route: RouteDefinition, part: Part, field: string, value: unknown, body: unknown): { input: unknown; error: ApiError | undefined } {
  const schema = route.request[part]!;
  if (part === 'body') {
    const input = { ...(body as Json | undefined), [field]: value };
    return { input, error: refusal(schema, input, part) };
  }
  // A path's other parameters are the caller's own, valid ones: its parameter is parsed alone.
  const input = { [field]: value };
  const alone = part === 'path' && (schema as { entries?: object }).entries ? v.pick(schema as v.ObjectSchema<v.ObjectEntries, undefined>, [field]) : schema;
  return { input, error: refusal(alone, input, part) };
}

/**
 * The operation's 400: a body field, else a query parameter, else a path parameter set to a value its schema refuses,
 * on the request's valid example body. Only a refusal naming that part's own fields is an example.
 */
export function badRequestExample(route: RouteDefinition, body: unknown): ErrorExample | undefined {
  // A body the function reads itself (MCP's JSON-RPC) is refused in its protocol's terms, not by its schema's envelope.
  for (const part of route.request.bodyAsText ? (['query', 'path'] as const) : (['body', 'query', 'path'] as const)) {
    const properties = propertiesOf(route.request[part], part);
    const fields = new Set(properties.map(([name]) => name));
    for (const [field, property] of properties) {
      for (const value of wrongValues(property, part)) {
        const { input, error } = attempt(route, part, field, value, body);
        if (error && namesOnly(error, fields)) return { summary: `${field}: ${shown(value)} ${WHERE[part]}`, wrong: { part, field }, request: { [part]: input }, answer: envelopeOf(error) };
      }
    }
  }
  return undefined;
}

/** An id no record can have: not of an id's format, so it is answered as an unknown id, before anything is read. */
const IMPOSSIBLE_ID = '0';

/**
 * The operation's 404: the record its path names last (or, without one, a record its body refers to) given an id no
 * record can have, which the API answers as it answers an unknown id.
 */
export function notFoundExample(route: RouteDefinition, body: unknown): ErrorExample | undefined {
  for (const part of route.request.bodyAsText ? (['path'] as const) : (['path', 'body'] as const)) {
    const fields = propertiesOf(route.request[part], part).map(([name]) => name);
    for (const field of part === 'path' ? fields.reverse() : fields) {
      const { input, error } = attempt(route, part, field, IMPOSSIBLE_ID, body);
      if (error?.status === 404) {
        return { summary: `${field}: ${shown(IMPOSSIBLE_ID)} ${WHERE[part]}, an id no record has`, wrong: { part, field }, request: { [part]: input }, answer: envelopeOf(error) };
      }
    }
  }
  return undefined;
}

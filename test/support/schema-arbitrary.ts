import fc from 'fast-check';

/** The part of JSON Schema (2020-12, as OpenAPI 3.1 writes it) the document's request schemas use. */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  multipleOf?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  [extension: string]: unknown;
}

/** Keeps generated collections small: the fuzz is after shapes, not sizes (the limits have their own tests). */
const MAX_GENERATED_ITEMS = 4;

/** JSON Schema counts a string's length in code points. */
const codePoints = (text: string) => [...text].length;

function withinLength(schema: JsonSchema) {
  return (text: string) => codePoints(text) >= (schema.minLength ?? 0) && codePoints(text) <= (schema.maxLength ?? Infinity);
}

/** A generator for a pattern fast-check cannot read (a lookahead): the pattern without it, filtered by the whole. */
function matching(pattern: string): fc.Arbitrary<string> {
  const regex = new RegExp(pattern, 'u');
  try {
    return fc.stringMatching(regex);
  } catch {
    return fc.stringMatching(new RegExp(pattern.replace(/\(\?[=!][^)]*\)/g, ''), 'u')).filter((text) => regex.test(text));
  }
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const fits = withinLength(schema);
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
  const matches = (text: string) => fits(text) && (!pattern || pattern.test(text));
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  switch (schema.format) {
    case 'email':
      return fc.emailAddress().filter(matches);
    case 'uri':
      return fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }).filter(matches);
    case 'date-time':
      // Times already past: what a client reports (a call taken, a form sent) has happened.
      return fc
        .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date(Date.now() - 86_400_000), noInvalidDate: true })
        .map((date) => date.toISOString())
        .filter(matches);
    case 'date':
      return fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
  }
  if (schema.pattern) return matching(schema.pattern).filter(matches);
  return fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: Math.max(maxLength, schema.minLength ?? 0) }).filter(matches);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : schema.minimum;
  const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : schema.maximum;
  if (schema.multipleOf) {
    const step = schema.multipleOf;
    const decimals = Math.max(0, -Math.floor(Math.log10(step)));
    return fc.integer({ min: Math.ceil((min ?? 0) / step), max: Math.floor((max ?? 1_000_000) / step) }).map((units) => Number((units * step).toFixed(decimals)));
  }
  if (integer) return fc.integer({ min: min ?? -1_000_000, max: max ?? 1_000_000 });
  // Money and durations are usually round; fractions still come up.
  return fc.oneof(
    fc.integer({ min: Math.ceil(min ?? -1_000_000), max: Math.floor(max ?? 1_000_000) }),
    fc.double({ min: min ?? -1_000_000, max: max ?? 1_000_000, noNaN: true, noDefaultInfinity: true }),
  );
}

function objectArbitrary(schema: JsonSchema, resolve: (schema: JsonSchema) => JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0 && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    // A map: keys from propertyNames, values from additionalProperties.
    const key = stringArbitrary({ minLength: 1, maxLength: 20, ...resolve(schema.propertyNames ?? {}) });
    return fc.dictionary(key, schemaArbitrary(schema.additionalProperties, resolve), {
      minKeys: schema.minProperties ?? 0,
      maxKeys: Math.min(schema.maxProperties ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS),
    });
  }
  const record = fc.record(Object.fromEntries(names.map((name) => [name, schemaArbitrary(properties[name]!, resolve)])), { requiredKeys: schema.required ?? [] });
  return record.filter((value) => {
    const count = Object.keys(value).length;
    return count >= (schema.minProperties ?? 0) && count <= (schema.maxProperties ?? Infinity);
  });
}

/**
 * Values of `schema`'s shape: what a client reading the document alone may send once filtered by the whole schema
 * (constraints across fields are not generated, only kept). `resolve` follows `$ref`s to the document's components.
 */
export function schemaArbitrary(raw: JsonSchema, resolve: (schema: JsonSchema) => JsonSchema): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  // Beside a type, allOf/anyOf/oneOf only constrain it (which fields are required together): the type is generated
  // and the caller keeps what the whole schema accepts. Alone, they are the alternatives.
  if (!schema.type && !schema.properties) {
    const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
    if (alternatives && schema.allOf && schema.allOf.length !== 1) throw new Error('allOf of more than one schema is not generated');
    if (alternatives) return fc.oneof(...alternatives.map((alternative) => schemaArbitrary(alternative, resolve)));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => schemaArbitrary({ ...schema, type }, resolve)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaArbitrary(schema.items ?? {}, resolve), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(Math.min(schema.maxItems ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS), schema.minItems ?? 0),
      });
    case 'object':
      return objectArbitrary(schema, resolve);
    default:
      throw new Error(`no generator for the schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

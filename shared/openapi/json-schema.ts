import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';

export type { JsonSchema };

/**
 * Actions JSON Schema cannot express (and `finite`, which every JSON number is). The handlers still
 * run them; the document describes the shape around them (a trimmed string is still a string).
 */
const IGNORED_ACTIONS = ['trim', 'normalize', 'check', 'partial_check', 'finite'];

/**
 * `input`: what a client sends (request bodies). `output`: path and query values after parsing, so `integerString`
 * shows as an integer with its bounds. `answer`: what the API answers, parsed as `output` is, where a field with a
 * default is always present, so it is required.
 */
export type SchemaView = 'input' | 'output' | 'answer';

type Json = Record<string, unknown>;

const isSchema = (value: unknown): value is v.GenericSchema => (value as { kind?: unknown } | null)?.kind === 'schema';

const componentRef = (name: string) => `#/components/schemas/${name}`;

function config(view: SchemaView, definitions?: Record<string, v.GenericSchema>): ConversionConfig {
  return {
    target: 'draft-2020-12',
    typeMode: view === 'input' ? 'input' : 'output',
    errorMode: 'throw',
    ignoreActions: IGNORED_ACTIONS,
    definitions,
    overrideRef: ({ referenceId }) => componentRef(referenceId),
    // A value a handler validates in steps (a batch whose items are parsed one by one, so one bad item
    // fails alone) is documented by the schema it meets in the end: v.metadata({ documentedAs: … }).
    // A rule a v.check enforces and JSON Schema can state (one of two fields required, a non-empty
    // partial update) is added beside it: v.metadata({ jsonSchema: { minProperties: 1 } }).
    overrideAction: ({ valibotAction, jsonSchema }) => {
      // `format: email` names no grammar; the document states the one the API checks.
      if (valibotAction.type === 'email') return { ...jsonSchema, format: 'email', pattern: (valibotAction as unknown as { requirement: RegExp }).requirement.source } as JsonSchema;
      if (valibotAction.type !== 'metadata') return undefined;
      const metadata = (valibotAction as v.MetadataAction<unknown, Json>).metadata;
      if (isSchema(metadata.documentedAs)) return strip(toJsonSchema(metadata.documentedAs, config(view, definitions)));
      if (!metadata.jsonSchema) return undefined;
      // The converter copies metadata into the schema as is; only the keywords belong there.
      const { jsonSchema: _keywords, ...converted } = jsonSchema as Json;
      return { ...converted, ...(metadata.jsonSchema as Json) } as JsonSchema;
    },
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      // A v.custom guard is documented by the schema after it (v.metadata({ documentedAs })).
      if (valibotSchema.type === 'custom') return {};
      // A loose object takes keys it does not name: said outright, as generated clients read a missing
      // additionalProperties as none (openapi-typescript types `{}` as Record<string, never>).
      if (valibotSchema.type === 'loose_object') return { ...jsonSchema, additionalProperties: true };
      // v.object drops unknown keys, so what the API answers has exactly the listed ones; a field with a default is in
      // every answer.
      if (view !== 'input' && valibotSchema.type === 'object') {
        const entries = (valibotSchema as v.ObjectSchema<v.ObjectEntries, undefined>).entries;
        const defaulted = view === 'answer' ? Object.keys(entries).filter((name) => v.getDefault(entries[name] as never) !== undefined) : [];
        const required = [...new Set([...((jsonSchema.required as string[] | undefined) ?? []), ...defaulted])];
        return { ...jsonSchema, additionalProperties: false, ...(required.length ? { required: Object.keys(entries).filter((name) => required.includes(name)) } : {}) };
      }
      // An optional value's default is written in the input type ('50'); the output view shows it parsed (50).
      if (view !== 'input' && valibotSchema.type === 'optional' && jsonSchema.default !== undefined) {
        const schema = valibotSchema as v.OptionalSchema<v.GenericSchema, unknown>;
        return { ...jsonSchema, default: v.parse(schema.wrapped, v.getDefault(schema)) as JsonSchema['default'] };
      }
      return undefined;
    },
  };
}

function strip({ $schema: _schema, $defs: _defs, ...schema }: JsonSchema): JsonSchema {
  return schema;
}

/** Whether the converter refuses a schema in this view (components converted in place, so the field is found in them too). */
function refused(schema: v.GenericSchema, view: SchemaView): boolean {
  try {
    toJsonSchema(schema, config(view));
    return false;
  } catch {
    return true;
  }
}

type Node = v.GenericSchema & { entries?: Record<string, v.GenericSchema>; wrapped?: v.GenericSchema; item?: v.GenericSchema; options?: v.GenericSchema[] };

/** The parts of a schema a field can be in, each with what it adds to the field's path. */
function partsOf(schema: Node): [string, v.GenericSchema][] {
  if (schema.entries) return Object.entries(schema.entries).map(([name, entry]) => [`.${name}`, entry]);
  if (schema.wrapped) return [['', schema.wrapped]];
  if (schema.item) return [['[]', schema.item]];
  if (schema.options) return schema.options.filter(isSchema).map((option) => ['', option]);
  return [];
}

/** The path of the innermost field the converter refuses (`.quietHours.days[]`), from the schema down; '' when it is the schema itself. */
function refusedField(schema: v.GenericSchema, view: SchemaView): string {
  const part = partsOf(schema as Node).find(([, inner]) => refused(inner, view));
  return part ? `${part[0]}${refusedField(part[1], view)}` : '';
}

/**
 * `convert` of `where` (a route's `body`, a named schema), or an error naming the field the converter refused and
 * why: `body.quietHours.days[]: The "transform" action cannot be converted to JSON Schema.`
 */
function converting<T>(where: string, schema: v.GenericSchema, view: SchemaView, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new Error(`${where}${refusedField(schema, view)}: ${(error as Error).message}`, { cause: error });
  }
}

/** One schema, with registered components written as references to them; `where` names it in an error (`body`, `query`). */
export function convert(schema: v.GenericSchema, view: SchemaView, components?: Record<string, v.GenericSchema>, where = 'schema'): JsonSchema {
  return converting(where, schema, view, () => strip(toJsonSchema(schema, config(view, components))));
}

/** The named component schemas, each referring to the others by name; an error names the component and its field. */
export function convertComponents(components: Record<string, v.GenericSchema>): Record<string, JsonSchema> {
  const failing = () => Object.entries(components).find(([, schema]) => refused(schema, 'answer'));
  let converted: Record<string, JsonSchema>;
  try {
    converted = toJsonSchemaDefs(components, config('answer'));
  } catch (error) {
    const [name, schema] = failing() ?? ['components', v.unknown()];
    return converting(`components.schemas.${name}`, schema, 'answer', () => {
      throw error;
    });
  }
  return Object.fromEntries(Object.entries(converted).map(([name, schema]) => [name, strip(schema)]));
}

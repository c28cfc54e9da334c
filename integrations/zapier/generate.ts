import { EVENT_TYPES } from '../../functions/events/types';
import { buildDocument } from '../../functions/meta/document';
import { labeller, nonNull, sampleOf } from '../../shared/openapi/fields';
import { buildTools, IDEMPOTENCY_ARGUMENT, type ApiTool, type JsonSchema } from '../../functions/mcp/tools';
import { resources, routes } from '../../functions/resources';
import type { ZapierAction, ZapierTrigger } from '../../shared/zapier-offers';

/**
 * The Zapier app's definitions (integrations/zapier/generated.json), generated from the route table and the event
 * types through the OpenAPI document: each action's input fields from its API tool's arguments, its sample from the
 * document's examples, each trigger's sample from its event's. What the app offers is what each resource's definition
 * declares (`zapier`, shared/zapier-offers.ts). index.js reads them; `npm run generate` writes them and a test
 * fails while they are stale.
 */

/** A Zapier input field, as zapier-platform-schema's PlainInputFieldSchema takes it. */
export interface ZapierField {
  key: string;
  label: string;
  type?: 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'datetime';
  required: boolean;
  list?: true;
  dict?: true;
  choices?: string[];
  helpText?: string;
  children?: ZapierField[];
}

export const GENERATED_FILE = new URL('./generated.json', import.meta.url);

const MAX_HELP = 1000;
/** A description as Zapier shows it, whole sentences up to its 1000 characters. */
function helpOf(description: unknown): string | undefined {
  if (typeof description !== 'string' || description.trim() === '') return undefined;
  if (description.length <= MAX_HELP) return description;
  const cut = description.slice(0, MAX_HELP);
  return cut.slice(0, cut.lastIndexOf('. ') + 1) || `${cut.slice(0, MAX_HELP - 1)}…`;
}

/** The schema without its `null` alternative: Zapier leaves an optional field out rather than send null. A tool's schemas are inline: no components to follow. */
const notNull = (schema: JsonSchema): JsonSchema => nonNull(schema, {});

function scalarType(schema: JsonSchema, key: string): ZapierField['type'] {
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'number') return 'number';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.format === 'date-time') return 'datetime';
  if (schema.type === 'string' || schema.enum) return typeof schema.maxLength === 'number' && schema.maxLength > 2048 ? 'text' : 'string';
  throw new Error(`${key}: no Zapier field type for ${JSON.stringify(schema).slice(0, 200)}`);
}

/** One argument of a tool as a Zapier field: scalars typed, enums as choices, lists, key/value objects and line items. */
function fieldOf(key: string, raw: JsonSchema, required: boolean, labelOf: (name: string) => string): ZapierField {
  const schema = notNull(raw);
  const helpText = helpOf(schema.description);
  const base = { key, label: labelOf(key), required };
  if (schema.type === 'array' && schema.items?.type === 'object') {
    const inner = schema.items as JsonSchema;
    return { ...base, children: Object.entries(inner.properties as Record<string, JsonSchema>).map(([name, child]) => fieldOf(name, child, (inner.required ?? []).includes(name), labelOf)) };
  }
  if (schema.type === 'object') return { ...base, dict: true, ...(helpText ? { helpText } : {}) };
  const item = schema.type === 'array' ? (schema.items as JsonSchema) : schema;
  return {
    ...base,
    type: scalarType(item, key),
    ...(schema.type === 'array' ? { list: true as const } : {}),
    ...(item.enum ? { choices: item.enum as string[] } : {}),
    ...(helpText ? { helpText } : {}),
  };
}

type Json = Record<string, any>;

/** An action's request: where each field goes (the tool's places), and the record its answer holds. */
function actionOf(entry: ZapierAction, tool: ApiTool, document: Json, search: boolean) {
  const labelOf = labeller(document as never);
  const components = document.components.schemas as Record<string, JsonSchema>;
  const properties = tool.inputSchema.properties as Record<string, JsonSchema>;
  const required = new Set([...((tool.inputSchema.required as string[] | undefined) ?? []), ...(entry.require ?? [])]);
  const names = (entry.pick ?? Object.keys(properties)).filter((name) => !(name in (entry.fixed ?? {})));
  for (const name of [...names, ...Object.keys(entry.fixed ?? {})]) if (!properties[name]) throw new Error(`the Zapier action ${entry.key} names ${name}, which ${tool.name} does not take`);
  const fields = names.map((name) =>
    name === IDEMPOTENCY_ARGUMENT
      ? { ...fieldOf(name, properties[name]!, false, labelOf), label: 'Idempotency Key', helpText: 'Optional. The same key within 24 hours answers the first result again instead of writing twice: map a value unique to the run (the trigger’s ID) so that a replayed Zap step does not write twice.' }
      : fieldOf(name, properties[name]!, required.has(name), labelOf),
  );
  // The record (or, for a search, the list of records) the answer holds is what the action answers, the answer's
  // other parts beside its fields (an upsert's `created`).
  const operation = document.paths[tool.path][tool.method.toLowerCase()];
  const success = Object.entries(operation.responses as Json).find(([status]) => status.startsWith('2'))?.[1]?.content?.['application/json']?.schema;
  const answer = success?.$ref ? components[success.$ref.split('/').pop()] : success;
  const isRecord = (part: JsonSchema) => Boolean(part.$ref || (part.type === 'array' && part.items?.$ref));
  const records = Object.entries((answer?.properties ?? {}) as Record<string, JsonSchema>).filter(([, part]) => isRecord(part));
  if (records.length !== 1) throw new Error(`the Zapier action ${entry.key}: ${tool.name}'s answer holds ${records.length} records, not one`);
  const [unwrap, part] = records[0]!;
  if ((part.type === 'array') !== search) throw new Error(`the Zapier action ${entry.key}: a search answers a list, a create one record`);
  const example = sampleOf(success, components) as Json;
  const { [unwrap]: record, ...rest } = example;
  const sample = Array.isArray(record) ? record[0] : { ...rest, ...record };
  if (!sample || typeof sample !== 'object') throw new Error(`the Zapier action ${entry.key}: the document has no example of ${tool.name}'s answer`);
  return {
    key: entry.key,
    noun: entry.noun,
    label: entry.label,
    description: entry.description,
    operationId: operation.operationId as string,
    method: tool.method,
    path: tool.path,
    places: { ...tool.places, fixed: { ...tool.places.fixed, ...entry.fixed } },
    fields,
    unwrap,
    sample,
  };
}

/** A trigger's sample: the document's Event example as an event of its type, its data the example of that type's record. */
function triggerOf(entry: ZapierTrigger, document: Json, dataOf: Map<string, string>) {
  const components = document.components.schemas as Record<string, JsonSchema>;
  const event = components.Event!.examples[0] as Json;
  const type = entry.eventType ?? event.type;
  const data = components[dataOf.get(type)!]?.examples?.[0];
  if (!data) throw new Error(`the Zapier trigger ${entry.key}: the document has no example of ${type}'s data`);
  const sampleData = { ...data, ...entry.filter?.where };
  const changed = entry.filter?.changed ?? [];
  const previousAttributes = Object.fromEntries(changed.map((field) => [field, otherValueOf(field, sampleData[field], components[dataOf.get(type)!]!)]));
  return {
    key: entry.key,
    noun: entry.noun,
    label: entry.label,
    description: entry.description,
    ...(entry.eventType ? { eventType: entry.eventType } : { eventTypes: [...EVENT_TYPES] }),
    ...(entry.filter ? { filter: entry.filter } : {}),
    sample: { ...event, type, data: sampleData, ...(changed.length ? { previousAttributes } : {}) },
  };
}

/** A value the field had before, for a sample of its change: another of its enum's values. */
function otherValueOf(field: string, value: unknown, schema: JsonSchema): unknown {
  const variants = (schema.oneOf as JsonSchema[] | undefined) ?? [schema];
  const values = variants.flatMap((variant) => (notNull(variant.properties?.[field] ?? {}).enum as unknown[] | undefined) ?? []);
  return values.find((other) => other !== value) ?? null;
}

/** The app's definitions, checked against the route table and the event types. */
export function zapierDefinitions() {
  const document = buildDocument() as Json;
  const tools = new Map(buildTools(document as never, routes).map((tool) => [tool.name, tool]));
  const toolOf = (entry: ZapierAction) => {
    const tool = tools.get(entry.tool);
    if (!tool) throw new Error(`the Zapier action ${entry.key} calls ${entry.tool}, which is no API tool (functions/mcp/tools.ts)`);
    return tool;
  };
  // What each resource offers (its definition's `zapier`), in the list's order: a resource that says nothing offers nothing.
  const offers = resources.map((resource) => resource.zapier ?? {});
  const creates = offers.flatMap((offer) => offer.creates ?? []).map((entry) => actionOf(entry, toolOf(entry), document, false));
  const searches = offers.flatMap((offer) => offer.searches ?? []).map((entry) => actionOf(entry, toolOf(entry), document, true));
  const dataOf = new Map(resources.flatMap((resource) => resource.events ?? []).flatMap((source) => source.types.map((type) => [type, source.data] as const)));
  const offeredTriggers = offers.flatMap((offer) => offer.triggers ?? []);
  for (const trigger of offeredTriggers) if (trigger.eventType && !(EVENT_TYPES as readonly string[]).includes(trigger.eventType)) throw new Error(`the Zapier trigger ${trigger.key} names ${trigger.eventType}, no event type`);
  const triggers = offeredTriggers.map((entry) => triggerOf(entry, document, dataOf));
  const searchOrCreates = offers.flatMap((offer) => offer.searchOrCreates ?? []);
  const keys = (list: readonly { key: string }[]) => new Set(list.map(({ key }) => key));
  for (const pair of searchOrCreates) if (!keys(searches).has(pair.search) || !keys(creates).has(pair.create)) throw new Error(`the Zapier search-or-create ${pair.label} names a search or a create the app does not offer`);
  for (const [kind, list] of Object.entries({ triggers, creates, searches })) if (keys(list).size !== list.length) throw new Error(`two Zapier ${kind} have one key`);

  return { triggers, creates, searches, searchOrCreates };
}

export const generatedContent = () => `${JSON.stringify(zapierDefinitions(), null, 2)}\n`;

/** The app's definitions as `npm run generate` (infra/generate/run.ts) writes them. */
export const generatedFile = () => ({ path: GENERATED_FILE, content: generatedContent() });

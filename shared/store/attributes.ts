import * as v from 'valibot';
import { emptyValueOf } from '../schema';

/**
 * One field of an entity, declared once as ElectroDB and Twenty declare theirs: how the API answers it, what a write
 * takes, what a new record holds and how the item stores it. The record schema, the create and change bodies and the
 * item mapping are read from these rows (`defineEntity`), so no field is listed again to give it a default or a null.
 */
export interface Attribute {
  /** How the API answers it: the record schema's entry. */
  type: v.GenericSchema;
  /** What a write takes, checked as sent. A field without one is read-only: the service alone writes it. */
  rule?: v.GenericSchema;
  /** What a new record holds while nobody set it; when absent, the empty value of its type (`emptyValueOf`). */
  default?: unknown;
  /** A create must send it. */
  required?: true;
  /** Every write may send null, a create too. */
  nullable?: true;
  /** Only a change may send null, to clear it; a create leaves the field out instead. */
  clearable?: true;
  /** Only a change takes it: a new record always starts at its default. */
  changeOnly?: true;
  /** The create body states the default: the document shows it and the parse fills it in. */
  stated?: true;
  /** Left out of the stored item while it holds its default, and read back as it: smaller items and index copies. */
  sparse?: true;
}

export type Attributes = Readonly<Record<string, Attribute>>;

type RuleOf<A> = A extends { rule: infer R extends v.GenericSchema } ? R : never;
type OrNull<S extends v.GenericSchema, Null extends boolean> = Null extends true ? v.NullableSchema<S, undefined> : S;
type SentRule<A> = OrNull<RuleOf<A>, A extends { nullable: true } ? true : false>;
type ChangedRule<A> = OrNull<RuleOf<A>, A extends { nullable: true } | { clearable: true } ? true : false>;
type CreateEntry<A> = A extends { required: true }
  ? SentRule<A>
  : A extends { stated: true }
    ? v.OptionalSchema<SentRule<A>, v.InferInput<SentRule<A>>>
    : v.OptionalSchema<SentRule<A>, undefined>;

type WritableNames<T> = { [K in keyof T]: T[K] extends { rule: v.GenericSchema } ? K : never }[keyof T];
type CreatableNames<T> = { [K in keyof T]: T[K] extends { changeOnly: true } ? never : T[K] extends { rule: v.GenericSchema } ? K : never }[keyof T];

/** The record schema's entries: each field's `type`. */
export type RecordEntries<T extends Attributes> = { -readonly [K in keyof T]: T[K]['type'] };
/** A create body's entries: each writable field but the change-only ones, optional unless required. */
export type CreateEntries<T extends Attributes> = { -readonly [K in CreatableNames<T>]: CreateEntry<T[K]> };
/** A change's entries, each as `partialUpdateBody` takes it: every writable field, null where it may be cleared. */
export type ChangeEntries<T extends Attributes> = { -readonly [K in WritableNames<T>]: ChangedRule<T[K]> };

const orNull = (rule: v.GenericSchema, nullable: boolean | undefined) => (nullable ? v.nullable(rule) : rule);

function createEntry(attribute: Attribute, value: unknown): v.GenericSchema {
  const sent = orNull(attribute.rule!, attribute.nullable);
  if (attribute.required) return sent;
  return attribute.stated ? v.optional(sent, value as never) : v.optional(sent);
}

/**
 * The record answers its fields in the order of its example (the document's sample of it), which must show every
 * field: the rows are in the order the bodies take them, which an API may have documented otherwise.
 */
function recordOrder(names: string[], example: object | undefined): string[] {
  if (!example) return names;
  const shown = Object.keys(example);
  const missing = names.filter((name) => !shown.includes(name));
  const extra = shown.filter((name) => !names.includes(name));
  if (missing.length || extra.length) throw new Error(`The example must show exactly the attributes: missing ${missing.join(', ') || 'none'}, extra ${extra.join(', ') || 'none'}`);
  return shown;
}

/** Each field's value on a new record (`Attribute.default`), for the fields that have one. */
function defaultsOf(attributes: Attributes): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attributes).flatMap(([name, attribute]) => {
      const value = 'default' in attribute ? attribute.default : emptyValueOf(attribute.type);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/** The schemas an attribute table derives: the record's, the create body's entries and the change's. */
export function schemasOf<const T extends Attributes>(attributes: T, example?: object) {
  const rows = Object.entries(attributes);
  const defaults = defaultsOf(attributes);
  const writable = rows.filter(([, attribute]) => attribute.rule);
  const Record = v.object(Object.fromEntries(recordOrder(Object.keys(attributes), example).map((name) => [name, attributes[name]!.type])) as RecordEntries<T>);
  const create = Object.fromEntries(writable.filter(([, attribute]) => !attribute.changeOnly).map(([name, attribute]) => [name, createEntry(attribute, defaults[name])]));
  const change = Object.fromEntries(writable.map(([name, attribute]) => [name, orNull(attribute.rule!, attribute.nullable || attribute.clearable)]));
  const sparse = Object.fromEntries(rows.filter(([name, attribute]) => attribute.sparse && name in defaults).map(([name]) => [name, defaults[name]]));
  return {
    Record,
    create: create as CreateEntries<T>,
    change: change as ChangeEntries<T>,
    /** What a new record holds in each field nobody set. */
    defaults: defaults as Partial<v.InferOutput<typeof Record>>,
    /** The fields the item leaves out while they hold these values. */
    sparse: sparse as Partial<v.InferOutput<typeof Record>>,
  };
}

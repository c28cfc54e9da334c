import * as v from 'valibot';
import { emptyFieldsOf, Timestamp } from '../schema';

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
  /**
   * What a new record holds while nobody set it; when absent, the empty value of its type (`emptyFieldsOf`). It is the
   * entity's `defaults` and what `sparse` leaves out; a create gets it only by `defaultInBody` (the parse fills it in) or by
   * its rules spreading the entity's `defaults` under the body: otherwise nothing writes it.
   */
  default?: unknown;
  /** A create must send it. */
  required?: true;
  /** Every write may send null, a create too. */
  nullable?: true;
  /** Only a change may send null, to clear it; a create leaves the field out instead. */
  clearable?: true;
  /** Only a change takes it: a new record always starts at its default. */
  changeOnly?: true;
  /** Only a create takes it: it never changes after (an appointment stays its lead's). */
  createOnly?: true;
  /** The create body states the default: the document shows it and the parse fills it in. */
  defaultInBody?: true;
  /**
   * Left out of the stored item while it holds its default, and read back as it: smaller items and index copies. The
   * field must have a default (its own, or its type's empty value).
   */
  sparse?: true;
  /**
   * The record answers it right after this field, where the API first documented it, while the bodies take it in the
   * row's place: the rows are in the bodies' order.
   */
  answeredAfter?: string;
}

export type Attributes = Readonly<Record<string, Attribute>>;

/** When a record was created and last changed: the service writes both; `updatedAt` is its change log's order. */
export const RECORD_TIMES = { createdAt: { type: Timestamp }, updatedAt: { type: Timestamp } } as const;

type RuleOf<A> = A extends { rule: infer R extends v.GenericSchema } ? R : never;
type OrNull<S extends v.GenericSchema, Null extends boolean> = Null extends true ? v.NullableSchema<S, undefined> : S;
type SentRule<A> = OrNull<RuleOf<A>, A extends { nullable: true } ? true : false>;
type ChangedRule<A> = OrNull<RuleOf<A>, A extends { nullable: true } | { clearable: true } ? true : false>;
type CreateEntry<A> = A extends { required: true }
  ? SentRule<A>
  : A extends { defaultInBody: true }
    ? v.OptionalSchema<SentRule<A>, v.InferInput<SentRule<A>>>
    : v.OptionalSchema<SentRule<A>, undefined>;

type ChangeableNames<T> = { [K in keyof T]: T[K] extends { createOnly: true } ? never : T[K] extends { rule: v.GenericSchema } ? K : never }[keyof T];
type CreatableNames<T> = { [K in keyof T]: T[K] extends { changeOnly: true } ? never : T[K] extends { rule: v.GenericSchema } ? K : never }[keyof T];

/** The record schema's entries: each field's `type`. */
export type RecordEntries<T extends Attributes> = { -readonly [K in keyof T]: T[K]['type'] };
/** A create body's entries: each writable field but the change-only ones, optional unless required. */
export type CreateEntries<T extends Attributes> = { -readonly [K in CreatableNames<T>]: CreateEntry<T[K]> };
/** A change's entries, as `partialUpdateBody` takes them: each writable field but create-only ones, null where clearable. */
export type ChangeEntries<T extends Attributes> = { -readonly [K in ChangeableNames<T>]: ChangedRule<T[K]> };

const orNull = (rule: v.GenericSchema, nullable: boolean | undefined) => (nullable ? v.nullable(rule) : rule);

function createEntry(attribute: Attribute, value: unknown): v.GenericSchema {
  const sent = orNull(attribute.rule!, attribute.nullable);
  if (attribute.required) return sent;
  return defaultInBody(attribute) ? v.optional(sent, value as never) : v.optional(sent);
}

const defaultInBody = (attribute: Attribute) => attribute.defaultInBody === true;

/**
 * Options that would be ignored as combined are refused when the entity is defined, not found missing in a request:
 * a null allowed of a type that answers none, a default in the body or a sparse one the field has none of, a field no write takes.
 */
function checkRows(attributes: Attributes, defaults: Record<string, unknown>): void {
  for (const [name, attribute] of Object.entries(attributes)) {
    const refuse = (reason: string) => {
      throw new Error(`${name}: ${reason}`);
    };
    if ((attribute.nullable || attribute.clearable) && !v.safeParse(attribute.type, null).success) refuse('nullable or clearable, but its type does not take null');
    if (defaultInBody(attribute) && !(name in defaults)) refuse('its default is in the create body, but it has none');
    if (attribute.sparse && !(name in defaults)) refuse('sparse, but it has no default to leave out');
    if (attribute.changeOnly && attribute.createOnly) refuse('change-only and create-only: no write takes it');
  }
}

/** The record's fields: in the rows' order, but each that is answered after another field moved behind it. */
function recordOrder(attributes: Attributes): string[] {
  const order = Object.keys(attributes);
  for (const [name, { answeredAfter }] of Object.entries(attributes)) {
    if (answeredAfter === undefined) continue;
    if (!(answeredAfter in attributes)) throw new Error(`${name} is answered after ${answeredAfter}, which is no attribute`);
    order.splice(order.indexOf(name), 1);
    order.splice(order.indexOf(answeredAfter) + 1, 0, name);
  }
  return order;
}

/** Each field's value on a new record: its `default`, else the empty value of its type (`emptyFieldsOf`), if it has one. */
function defaultsOf(attributes: Attributes, record: v.ObjectSchema<v.ObjectEntries, undefined>): Record<string, unknown> {
  const given = Object.entries(attributes).filter(([, attribute]) => 'default' in attribute);
  return { ...emptyFieldsOf(record), ...Object.fromEntries(given.map(([name, attribute]) => [name, attribute.default])) };
}

/** The schemas an attribute table derives: the record's, the create body's entries and the change's. */
export function schemasOf<const T extends Attributes>(attributes: T) {
  const rows = Object.entries(attributes);
  const Record = v.object(Object.fromEntries(recordOrder(attributes).map((name) => [name, attributes[name]!.type])) as RecordEntries<T>);
  const defaults = defaultsOf(attributes, Record);
  checkRows(attributes, defaults);
  const writable = rows.filter(([, attribute]) => attribute.rule);
  const create = Object.fromEntries(writable.filter(([, attribute]) => !attribute.changeOnly).map(([name, attribute]) => [name, createEntry(attribute, defaults[name])]));
  const change = Object.fromEntries(writable.filter(([, attribute]) => !attribute.createOnly).map(([name, attribute]) => [name, orNull(attribute.rule!, attribute.nullable || attribute.clearable)]));
  const sparse = Object.fromEntries(rows.filter(([, attribute]) => attribute.sparse).map(([name]) => [name, defaults[name]]));
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

import * as v from 'valibot';
import { NonEmptyString, partialUpdateBody } from '../schema';

/**
 * One attribute of a record, as an attribute table declares it (ElectroDB's attributes): what a body may send, how
 * the record shows it, and what a create that leaves it out gets.
 */
export interface Field<S extends v.GenericSchema = v.GenericSchema> {
  /** What a body may send, with its messages naming the field; absent for a read-only field. */
  rule?: v.GenericSchema;
  /** How the record shows it (the document's schema of the field). */
  record: S;
  /** Its value when a create leaves it out. */
  default?: unknown;
  /** A create may leave it out with no default: a rule fills it (a transfer's name is its label unless given). */
  optional?: true;
  /** Set by the store, never sent: the parent's id of a record under another (a note's companyId). */
  readOnly?: true;
  /** Sent on create only: no update changes it (a note's author). */
  createOnly?: true;
}

/** A field's row, given its name (messages name the field). */
export type FieldRow<S extends v.GenericSchema = v.GenericSchema> = (name: string) => Field<S>;
export type FieldTable = Record<string, FieldRow>;
type Extras = Omit<Field, 'rule' | 'record'>;

/** A trimmed, non-empty text of at most `max` characters. */
export const text =
  (max: number, extras: Extras = {}): FieldRow<v.StringSchema<undefined>> =>
  (name) => ({ rule: NonEmptyString(name, max), record: v.string(), ...extras });

/** A boolean, `default` when a create leaves it out. */
export const flag =
  (fallback: boolean): FieldRow<v.BooleanSchema<undefined>> =>
  (name) => ({ rule: v.boolean(`${name} must be a boolean`), record: v.boolean(), default: fallback });

/** Any other field: its rule (given its name) and its record schema. */
export const field =
  <S extends v.GenericSchema>(rule: ((name: string) => v.GenericSchema) | undefined, record: S, extras: Extras = {}): FieldRow<S> =>
  (name) => ({ ...(rule && { rule: rule(name) }), record, ...extras });

/** The record's fields, as the API answers them. */
export type FieldValues<F extends FieldTable> = { [K in keyof F]: v.InferOutput<ReturnType<F[K]>['record']> };

/** The fields, each with its name, in the table's order. */
export const rowsOf = (table: FieldTable) => Object.entries(table).map(([name, row]) => [name, row(name)] as const);

/**
 * What derives from the table: the record's entries, the create body (defaults filled in, optional fields left
 * out), the update body (any writable field, at least one; with `wholeUpdate`, every one) and the writable names.
 */
export function fieldSchemas(table: FieldTable, { wholeUpdate = false } = {}) {
  const rows = rowsOf(table);
  const writable = rows.filter(([, row]) => row.rule !== undefined);
  const create = Object.fromEntries(writable.map(([name, row]) => [name, 'default' in row ? v.optional(row.rule!, row.default as never) : row.optional ? v.optional(row.rule!) : row.rule!]));
  const update = Object.fromEntries(writable.filter(([, row]) => !row.createOnly).map(([name, row]) => [name, row.rule!]));
  return {
    record: Object.fromEntries(rows.map(([name, row]) => [name, row.record])) as v.ObjectEntries,
    CreateBody: v.strictObject(create),
    UpdateBody: wholeUpdate ? v.strictObject(update) : partialUpdateBody(update),
    updatable: Object.keys(update),
  };
}

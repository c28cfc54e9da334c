import * as v from 'valibot';
import { NonEmptyString, partialUpdateBody } from '../schema';
import { schemasOf, type Attribute } from '../store/attributes';

/** One field of a CRUD resource: an entity's attribute (shared/store/attributes.ts: its answer type, write rule, default, nullability, create-only). */
export type CrudField = Attribute;

/** A field's row, or the row given its name (its messages name the field). */
export type FieldRow = CrudField | ((name: string) => CrudField);
export type FieldTable = Record<string, FieldRow>;

type RowOf<R> = R extends (name: string) => infer A ? A : R;
/** The record's fields, as the API answers them. */
export type FieldValues<F extends FieldTable> = { [K in keyof F]: v.InferOutput<RowOf<F[K]> extends { type: infer S extends v.GenericSchema } ? S : never> };

type Extras = Omit<CrudField, 'type' | 'rule'>;

/** A trimmed text of at most `max` characters with a visible one, which a create must send unless told otherwise. */
export const text =
  (max: number, extras: Extras = { required: true }) =>
  (name: string) => ({ type: v.string(), rule: NonEmptyString(name, max), ...extras });

/** A boolean, `fallback` when a create leaves it out (the create body states it). */
export const flag = (fallback: boolean) => (name: string) => ({ type: v.boolean(), rule: v.boolean(`${name} must be a boolean`), default: fallback, defaultInBody: true as const });

/** Any other field: its answer type, and its rule given its name (none for a read-only field). */
export const field =
  <S extends v.GenericSchema>(type: S, rule?: (name: string) => v.GenericSchema, extras: Extras = {}) =>
  (name: string) => ({ type, ...(rule && { rule: rule(name) }), ...extras });

/** The fields, each with its name, in the table's order. */
export const rowsOf = (table: FieldTable) => Object.entries(table).map(([name, row]) => [name, typeof row === 'function' ? row(name) : row] as const);

/**
 * What derives from the table, through the entity's attribute derivation (`schemasOf`): the record's entries, the
 * create body, the update body (any field but the create-only ones, at least one; with `wholeUpdate`, every one),
 * what a new record holds in the fields nobody set, and the names an update and a create must send.
 */
export function fieldSchemas(table: FieldTable, { wholeUpdate = false } = {}) {
  const rows = rowsOf(table);
  const schemas = schemasOf(Object.fromEntries(rows));
  const change = schemas.change as v.ObjectEntries;
  return {
    record: schemas.Record.entries as v.ObjectEntries,
    CreateBody: v.strictObject(schemas.create as v.ObjectEntries),
    UpdateBody: wholeUpdate ? v.strictObject(change) : partialUpdateBody(change),
    defaults: schemas.defaults as Record<string, unknown>,
    updatable: Object.keys(change),
    required: rows.filter(([, row]) => row.required).map(([name]) => name),
  };
}

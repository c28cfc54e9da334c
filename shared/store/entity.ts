import * as v from 'valibot';
import { schemasOf, type Attributes } from './attributes';
import { changeLogKey, type Key } from './keys';
import type { Condition } from './update-fields';

export { RECORD_TIMES } from './attributes';
export type { Attribute, Attributes } from './attributes';

/**
 * A global secondary index the entity's items are in (`gsi2` writes `gsi2pk` and `gsi2sk`): the fields its keys are
 * composed of (`indexFields`, which a write may condition on being as read), and the keys. A record whose `keys`
 * answer undefined is not in the index (a sparse index).
 */
export interface IndexDefinition<R, F extends keyof R & string = keyof R & string> {
  fields: readonly F[];
  /** Built from the record's id and the indexes' fields alone, so a key helper needs no more of the record than these. */
  keys: (organizationId: string, record: IndexedBy<R, F>) => { pk: string; sk: string } | undefined;
}

/** What an index's keys read of a record: its id and the fields the indexes list. */
type IndexedBy<R, F extends keyof R> = Pick<R, F | ('id' extends keyof R ? 'id' : never)>;

export interface EntityDefinition<T extends Attributes, R, F extends keyof R & string = keyof R & string> {
  /** The item's `entity` attribute, which the stream, the audit log and the change log read. */
  entity: string;
  attributes: T;
  /** The item's own key, from its organization and id. */
  key: (organizationId: string, id: IdOf<R>) => Key;
  indexes?: Readonly<Record<string, IndexDefinition<R, F>>>;
  /** The change log (`updatedSince`) the items are in, if any (`keys.changeLog`). */
  changes?: string;
}

type IdOf<R> = R extends { id: infer I } ? I : never;

type RecordOf<T extends Attributes> = v.InferOutput<v.ObjectSchema<{ -readonly [K in keyof T]: T[K]['type'] }, undefined>>;

/** Equal as stored values: an empty object or list is its default however it was made. */
const sameValue = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * An entity declared by one attribute table (`Attribute`) and its indexes. Derives the record schema, the create and
 * change bodies' entries, what a new record holds, the item mapping (keys, index keys, change log, the fields, sparse
 * ones left out while default) and which index keys a change moves.
 */
export function defineEntity<const T extends Attributes, const C extends string | undefined = undefined, const F extends keyof RecordOf<T> & string = never>(
  definition: EntityDefinition<T, RecordOf<T>, F> & { attributes: T; changes?: C },
) {
  type R = RecordOf<T>;
  const { entity, attributes, key, indexes = {}, changes } = definition;
  const schemas = schemasOf(attributes);
  const indexFields = [...new Set(Object.values(indexes).flatMap((index) => index.fields))];

  /** The keys of the named indexes the record is in (all by default), as the item's gsi attributes; its id and index fields suffice. */
  const indexKeys = (organizationId: string, record: IndexedBy<R, F>, names = Object.keys(indexes)): Record<string, string> =>
    Object.fromEntries(
      names.flatMap((name) => {
        const keys = indexes[name]!.keys(organizationId, record);
        return keys ? [[`${name}pk`, keys.pk], [`${name}sk`, keys.sk]] : [];
      }),
    );

  /** The stored fields: all but the sparse ones holding their default. */
  const storedFields = (record: R) => Object.fromEntries(Object.entries(record).filter(([name, value]) => !(name in schemas.sparse && sameValue((schemas.sparse as Record<string, unknown>)[name], value))));

  /** The item (or the attributes of it a read projected) with the fields it left out read back as their defaults. */
  const withDefaults = (item: Record<string, unknown>): Record<string, unknown> => ({ ...schemas.sparse, ...item });

  return {
    ...schemas,
    entity,
    attributes,
    /** The change log the items are in. */
    changes: changes as C,
    key,
    indexKeys,
    /** The fields the indexes' keys are made of, each once. */
    indexFields,
    indexMoves: (organizationId: string, from: R, to: R) => indexMoves(indexes, indexKeys, organizationId, from, to),
    withDefaults,
    toItem: (organizationId: string, record: R) => ({
      ...key(organizationId, (record as { id: IdOf<R> }).id),
      ...indexKeys(organizationId, record),
      ...(changes ? changeLogKey(organizationId, changes) : {}),
      entity,
      ...storedFields(record),
    }),
    /** The record schema keeps the entity's own fields, in documented order, and drops keys and bookkeeping. */
    fromItem: (item: Record<string, unknown>): R => v.parse(schemas.Record, withDefaults(item)) as R,
  };
}

/**
 * The index keys a change of the record moves: each index whose keys, built from the record before and after, differ
 * is written anew, and its keys removed when the record leaves it (a sparse index). Comparing the keys rather than the
 * index's `fields` moves one whatever field its keys read. Nothing when no index key changed.
 */
function indexMoves<R>(
  indexes: Readonly<Record<string, IndexDefinition<R>>>,
  indexKeys: (organizationId: string, record: R, names?: string[]) => Record<string, string>,
  organizationId: string,
  from: R,
  to: R,
): { set: Record<string, string>; remove: string[] } {
  const before = indexKeys(organizationId, from);
  const after = indexKeys(organizationId, to);
  const moved = Object.keys(indexes).filter((name) => [`${name}pk`, `${name}sk`].some((attribute) => before[attribute] !== after[attribute]));
  const set = indexKeys(organizationId, to, moved);
  const remove = moved.flatMap((name) => [`${name}pk`, `${name}sk`]).filter((attribute) => !(attribute in set));
  return { set, remove };
}

/**
 * The item still holds these fields as they were read (null ones absent or null), so what a write moves by them (index
 * keys, counters, items keyed by them) is the right thing to move.
 */
export function heldAsRead<R>(record: R, fields: readonly (keyof R & string)[]): Condition {
  const clauses = fields.map((field, i) => (record[field] === null ? `(attribute_not_exists(#k${i}) OR attribute_type(#k${i}, :nullType))` : `#k${i} = :k${i}`));
  return {
    expression: clauses.join(' AND '),
    names: Object.fromEntries(fields.map((field, i) => [`#k${i}`, field])),
    values: {
      // DynamoDB refuses a value the expression does not use.
      ...(fields.some((field) => record[field] === null) ? { ':nullType': 'NULL' } : {}),
      ...Object.fromEntries(fields.flatMap((field, i) => (record[field] === null ? [] : [[`:k${i}`, record[field]]]))),
    },
  };
}

/** Whether any of the fields differs between two states of a record. */
export const changedAny = <R>(from: R, to: R, fields: readonly (keyof R)[]) => fields.some((field) => from[field] !== to[field]);

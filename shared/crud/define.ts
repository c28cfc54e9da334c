import * as v from 'valibot';
import { lifecycleEvents, type AuditedRecord, type IsolationCases, type ResourceChanges } from '../resource';
import type { DynamoAction } from '../routes/route';
import { RECORD_TIMES } from '../store/attributes';
import type { Collection, Key } from '../store/keys';
import { changeLogKey } from '../store/keys';
import { fieldSchemas, type FieldTable, type FieldValues } from './fields';
import { crudRoutes, type CrudDocs } from './routes';

/** The verbs of a CRUD resource, in the order its routes are listed. */
export const CRUD_VERBS = ['list', 'create', 'get', 'update', 'delete'] as const;
export type CrudVerb = (typeof CRUD_VERBS)[number];

/**
 * A record under another one (a company's notes): the parent's id enters the path first, is the record's read-only
 * field of the same name, and the collection's counter exists exactly while the parent does, so a write to it, or
 * the list's read of it, answers `notFound` when the parent is gone.
 */
export interface CrudParent {
  /** The path parameter and the record's field, e.g. companyId. */
  param: string;
  /** The path's object schema with that parameter alone. */
  path: v.ObjectSchema<v.ObjectEntries, undefined>;
  notFound: () => Error;
}

/**
 * Everything a plain CRUD resource is: its fields, keys, names and texts. Its routes (with their DynamoDB actions),
 * schemas, item mapping, isolation cases, events and audited kind derive from this; its store and handlers are
 * `crudStore` and `crudHandler` (shared/crud/store.ts, handlers.ts), which need the table (this module does not, so the route
 * table can be read without one).
 */
export interface CrudOptions<F extends FieldTable> {
  /** The items' `entity`, and the id sequence's name unless `sequence` says otherwise. */
  entity: string;
  sequence?: string;
  /** The record's key in answers; its id parameter is `<singular>Id`. */
  singular: string;
  /** The list's key in answers, and the path segment. */
  plural: string;
  /** The collection's path when it is not `/v1/<plural>` (below its parent's). */
  path?: string;
  parent?: CrudParent;
  /** How errors name one record (`FAQ` not found). */
  label: string;
  tag: string;
  /** The audit log's `resourceType` and the events' prefix (`company_note.created`); `singular` unless given. */
  kind?: string;
  /** The record's fields, in the order it shows them, between `id` and its timestamps. */
  fields: F;
  /** The record shows `createdAt` as well as `updatedAt` (both are always stored). */
  showsCreatedAt?: true;
  /** An update sends every updatable field (a PUT that replaces a note's text), not any subset. */
  wholeUpdate?: true;
  /**
   * Its item carries a version (and its organization): an update reads it, merges, runs the rules' check and puts it
   * whole on condition of the version read; a delete reads it first too.
   */
  versioned?: true;
  /**
   * The record's key, its collection, and the counter of its collection (`totalCount` read from it, moved by every
   * create and delete), also the change log's name; a collection counted by its list has `changeLog` alone.
   */
  keys: {
    item: (organizationId: string, ...ids: never[]) => Key;
    collection: (organizationId: string, ...ids: never[]) => Collection;
    counter?: string | ((parentId: string) => string);
    changeLog?: string;
  };
  /**
   * A text no two records share, ignoring case and spacing (normalizeName), claimed by an item `claim` keys; a taken
   * one answers 409 CONFLICT with `taken`'s message.
   */
  unique?: { field: keyof F & string; claim: (organizationId: string, value: string) => Key; taken: (value: string) => string };
  /**
   * DynamoDB actions a verb's rules add to the store's own (shared/crud/store.ts `CrudRules`): a create's author
   * check, a transfer's member read. The store refuses rules that run in a verb with none declared.
   */
  ruleActions?: Partial<Record<CrudVerb, DynamoAction[]>>;
  /** The list's query when it filters beyond paging (its rules' `list` reads it). */
  listQuery?: v.ObjectSchema<v.ObjectEntries, undefined>;
  /** operationId stems (createFaq, listFaqs) and the document's name of the record (its events' `data`). */
  names: { one: string; many: string };
  docs: CrudDocs;
  /** The record as the document shows it; the isolation cases send its updatable fields. */
  example: CrudRecord<F>;
}

const Id = v.pipe(v.number(), v.integer());

export type CrudRecord<F extends FieldTable> = { id: number } & FieldValues<F> & { createdAt?: string; updatedAt: string };

/** A CRUD resource's derived parts, from its options (see CrudOptions). */
export function defineCrudResource<F extends FieldTable>(options: CrudOptions<F>) {
  const { entity, singular, names, keys, parent } = options;
  const fields = fieldSchemas(options.fields, { wholeUpdate: options.wholeUpdate });
  type Record = CrudRecord<F>;
  const timestamps = { ...(options.showsCreatedAt && { createdAt: RECORD_TIMES.createdAt.type }), updatedAt: RECORD_TIMES.updatedAt.type };
  const Record = v.object({ id: Id, ...fields.record, ...timestamps }) as unknown as v.GenericSchema<Record, Record>;
  const counterOf = (parentId?: string) => (typeof keys.counter === 'function' ? keys.counter(parentId!) : keys.counter);
  /** The change log (updatedSince) is named as the counter is, unless named itself. */
  const changeLogOf = (parentId?: string) => keys.changeLog ?? counterOf(parentId)!;
  /** The key builders' arguments after the organization: the parent's id, if any, then the record's. */
  const keyArgs = (record: { [key: string]: unknown }) => (parent ? [record[parent.param], record.id] : [record.id]) as never[];
  /**
   * createdAt is always kept on the item, for audit: a new record's, at `at`. A versioned item carries its version and
   * organization, and is put whole with the timestamps the record has.
   */
  const toItem = (organizationId: string, record: Record, { at, version }: { at?: string; version?: number }) => ({
    ...keys.item(organizationId, ...keyArgs(record)),
    ...changeLogKey(organizationId, changeLogOf(parent && (record[parent.param as keyof Record] as string))),
    entity,
    ...(version !== undefined && { organizationId, version }),
    ...record,
    ...(at !== undefined && { createdAt: at, updatedAt: at }),
  });
  const fromItem = (item: { [key: string]: unknown }): Record => v.parse(Record, item);
  const unique = options.unique;
  /** What the claim item holds: the record that has the text, and the text as that record spells it. */
  const toClaimItem = (organizationId: string, record: Record) =>
    unique && { ...unique.claim(organizationId, record[unique.field] as string), entity: `${entity}_${unique.field.toUpperCase()}`, [`${singular}Id`]: record.id, [unique.field]: record[unique.field] };
  const kind = options.kind ?? singular;
  const audited: AuditedRecord = { entity, resourceType: kind };
  const events = lifecycleEvents({ entity, data: names.one, toData: fromItem, created: `${kind}.created`, updated: `${kind}.updated`, deleted: `${kind}.deleted` });
  const { routes, schemas, isolationCases, bodies } = crudRoutes(options, { Record, CreateBody: fields.CreateBody, UpdateBody: fields.UpdateBody }, fields);
  return {
    options,
    schemas,
    toItem,
    fromItem,
    toClaimItem,
    counterOf,
    changeLogOf,
    /** What a new record holds in each field nobody set. */
    defaults: fields.defaults,
    route: routes,
    routes: CRUD_VERBS.map((verb) => routes[verb]),
    /** The document's named schema of the record, with its example. */
    components: { [names.one]: { schema: Record as v.GenericSchema, example: options.example as unknown } },
    /** Its records as the audit log names them (`faq`, `company_note`). */
    audited,
    /** Its create, update and delete as events (`faq.created`), each carrying the record as the API answers it. */
    events,
    /** What the stream consumer reads of it (its `changes.ts`): its events and audited kind. */
    changes: { events: [events], audited: [audited] } satisfies ResourceChanges,
    isolationCases: isolationCases as IsolationCases,
    /** What the tests send (shared/crud/tests.ts): the example's required fields, and its updatable ones. */
    bodies,
  };
}

export type CrudResource<F extends FieldTable = FieldTable> = ReturnType<typeof defineCrudResource<F>>;

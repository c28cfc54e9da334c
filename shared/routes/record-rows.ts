import type * as v from 'valibot';
import type { DynamoAction } from './route';
import type { IndexName } from '../table';
import { actionRow, createRow, deleteRow, getRow, listRow, updateRow, type OwnRow } from './rows';

type Schema = v.GenericSchema;
type IdPath = v.ObjectSchema<v.ObjectEntries, undefined>;

/** A record's schemas beyond its path and its answer: the list's query and page, the bodies of a create and an update, the delete's answer. */
interface RecordSchemas {
  query?: Schema;
  page?: Schema;
  create?: Schema;
  update?: Schema;
  deleted?: Schema;
}

/**
 * The names a record's schemas go by in its schema module, from the stems of its operationIds (`Company`,
 * `Companies`): `CompanyIdPath`, `CompanyResponse`, `ListCompaniesQuery`, `CompanyPage`, `CreateCompanyBody`,
 * `UpdateCompanyBody`, `CompanyDeleted`. A record names its schemas once, by naming them so.
 */
interface SchemaNames<One extends string, Many extends string> {
  idPath: `${One}IdPath`;
  response: `${One}Response`;
  query: `List${Many}Query`;
  page: `${One}Page`;
  create: `Create${One}Body`;
  update: `Update${One}Body`;
  deleted: `${One}Deleted`;
}
type Role = keyof SchemaNames<string, string>;
/** A schema the record gives by hand (one shared with other records, a name of another form). */
type Given = Partial<Record<Role, Schema>>;
/** The schema of a role: the one given by hand, else the module's of the conventional name, else none. */
type Found<M, One extends string, Many extends string, G extends Given, K extends Role> = K extends keyof G ? G[K] : SchemaNames<One, Many>[K] extends keyof M ? M[SchemaNames<One, Many>[K]] : undefined;

const schemaNames = (one: string, many: string): Record<Role, string> => ({
  idPath: `${one}IdPath`,
  response: `${one}Response`,
  query: `List${many}Query`,
  page: `${one}Page`,
  create: `Create${one}Body`,
  update: `Update${one}Body`,
  deleted: `${one}Deleted`,
});

/**
 * One kind of record as its routes name it: the reference's tag, the stems of the operationIds (`listLeads`,
 * `getLead`), the collection's path (a path schema naming one record ends the record's path, `/v1/leads/{leadId}`),
 * and what it adds; its schemas are its schema module's, by their names.
 */
export interface RecordRoutes<One extends string, Many extends string, G extends Given, U extends IdPath | undefined> {
  tag: string;
  names: { one: One; many: Many };
  path: string;
  /** Schemas not found by their conventional names. */
  given?: G;
  /** The record the collection lies below, by its path schema, which the list and the create take too (`/v1/leads/{leadId}/activities`). */
  parent?: U;
  /** Its writes are in the organization's change log, which its list reads with `updatedSince`: gsi6, after the list's own indexes. */
  changeLog?: true;
  /** It is a catalog, listed whole and filtered (`filteredCollectionPage`): its list is one Query, with no counter to read. */
  catalog?: true;
}

/** The request's path schema below a parent record, if any. */
type Under<U> = U extends IdPath ? { path: U } : Record<never, never>;

/** What a row says once its record has given its operationId, path, tag and schemas: its words, and what it adds. */
type Own = Omit<OwnRow<never, Schema>, 'operationId' | 'path' | 'tag' | 'request' | 'response'>;

/** A schema the record must declare for the row asked of it. */
function declared<T>(schema: T | undefined, name: string, record: string): T {
  if (!schema) throw new Error(`${record}'s routes find no ${name} schema`);
  return schema;
}

/**
 * The standard rows of one kind of record, each named, placed, tagged and given its schemas from it once:
 * `list<Many>` and `create<One>` at the collection's path, `get<One>`, `update<One>` and `delete<One>` at the
 * record's, an act at `…/{id}/<verb>`. A row gives its words and what it adds; `response` only when it answers
 * other than the record (a create that shows a secret once).
 */
export function recordRows<
  M extends object,
  const One extends string,
  const Many extends string,
  G extends Given = Record<never, never>,
  U extends IdPath | undefined = undefined,
  // What the record's schemas are, found: resolved where the rows are made, so each row's request and answer are typed.
  S extends Schema = Found<M, One, Many, G, 'response'> & Schema,
  P extends IdPath | undefined = Found<M, One, Many, G, 'idPath'> & (IdPath | undefined),
  X extends RecordSchemas = { [K in keyof RecordSchemas]-?: Found<M, One, Many, G, K> & (Schema | undefined) },
>(module: M, record: RecordRoutes<One, Many, G, U>) {
  const { tag, names, path, given = {}, parent, changeLog, catalog } = record;
  const named = schemaNames(names.one, names.many);
  const found = (role: Role) => (given as Given)[role] ?? ((module as Record<string, Schema | undefined>)[named[role]]);
  const response = declared(found('response'), named.response, names.one) as S;
  const idPath = found('idPath') as P;
  const itemPath = idPath ? `${path}/{${Object.keys((idPath as IdPath).entries).join('}/{')}}` : path;
  const at = (operationId: string, where = itemPath) => ({ operationId, path: where, tag });
  const schema = <K extends keyof RecordSchemas>(name: K) => declared(found(name), named[name], names.one) as NonNullable<X[K]>;
  const one = () => ({ path: declared(idPath, named.idPath, names.one) as NonNullable<P> });
  const under = (parent ? { path: parent } : {}) as Under<U>;
  return {
    list: ({ indexes = [], dynamodb = catalog ? ['Query'] : undefined, ...own }: Own) => {
      const read: IndexName[] = changeLog ? [...indexes, 'gsi6'] : indexes;
      return listRow({ ...at(`list${names.many}`, path), ...own, dynamodb, ...(read.length > 0 && { indexes: read }), request: { ...under, query: schema('query') }, response: schema('page') });
    },
    create: <T extends Schema = S>({ response: made = response as Schema as T, ...own }: Own & { response?: T }) =>
      createRow({ ...at(`create${names.one}`, path), ...own, request: { ...under, body: schema('create') }, response: made }),
    get: (own: Own) => getRow({ ...at(`get${names.one}`), ...own, request: one(), response }),
    update: <T extends Schema = S>({ response: changed = response as Schema as T, ...own }: Own & { response?: T; method?: 'PUT' | 'PATCH' }) =>
      updateRow({ ...at(`update${names.one}`), ...own, request: { ...one(), body: schema('update') }, response: changed }),
    delete: (own: Own) => deleteRow({ ...at(`delete${names.one}`), ...own, request: one(), response: schema('deleted') }),
    /** `POST …/{id}/<verb>`, named by the row (`rotateWebhookSecret`): acts have no standard name. */
    action: <T extends Schema = S>(verb: string, { operationId, response: done = response as Schema as T, ...own }: Own & { operationId: string; response?: T; dynamodb: DynamoAction[]; status?: 200 | 202 }) =>
      actionRow({ ...at(operationId, `${itemPath}/${verb}`), ...own, request: one(), response: done }),
  };
}

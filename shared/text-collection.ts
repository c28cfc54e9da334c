import * as v from 'valibot';
import type { AuditedRecord } from './resource';
import { defineRoute, type DynamoAction } from './routes/route';
import { NonEmptyString, PageQuery, Timestamp, deletedSchema, integerString, pageSchema, partialUpdateBody } from './schema';
import type { Collection, Key } from './store/keys';
import { changeLogKey } from './store/keys';

/** What the reference says of one operation. */
interface OperationDoc {
  summary: string;
  description: string;
}

/**
 * A collection of numbered records made of a few trimmed texts and `isActive`, with no rule across fields (the
 * organization's FAQs and policies): what differs between two such collections is only this.
 */
export interface TextCollectionOptions<Text extends string> {
  /** The items' `entity` and the name of their id sequence, e.g. FAQ. */
  entity: string;
  /** The record's wrapper key in answers, e.g. faq; its id parameter is `<singular>Id`. */
  singular: string;
  /** The list's key in answers and the path segment, e.g. faqs. */
  plural: string;
  /** How errors name one record, e.g. FAQ (FAQ not found). */
  label: string;
  tag: string;
  /** Each text field with its longest length. */
  text: Record<Text, number>;
  keys: { item: (organizationId: string, id: number) => Key; collection: (organizationId: string) => Collection; counter: string };
  /**
   * A text no two records share, ignoring case and spacing (normalizeName), claimed by an item `claim` keys; a taken
   * one answers 409 CONFLICT with `taken`'s message, as a taken product or service name does.
   */
  unique?: { field: NoInfer<Text>; claim: (organizationId: string, value: string) => Key; taken: (value: string) => string };
  /** operationId stems: createFaq, listFaqs, getFaq, updateFaq, deleteFaq. */
  names: { one: string; many: string };
  docs: { create: OperationDoc; list: OperationDoc; get: OperationDoc; update: OperationDoc; delete: OperationDoc };
}

const Id = v.pipe(v.number(), v.integer());

export type TextFields<Text extends string> = { [K in Text]: string } & { isActive: boolean };
/** `updatedAt`: when the record was created or last changed, the sync order (updatedSince). */
export type TextRecord<Text extends string> = { id: number } & TextFields<Text> & { updatedAt: string };
export type TextCollection<Text extends string> = ReturnType<typeof defineTextCollection<Text>>;

/**
 * Schemas, item mapping and the five routes (list, create, get, update with its PATCH alias, delete) of a text
 * collection: each of its fields is written once, here, from the options. Its store and handlers are
 * `textCollectionStore` and `textCollectionHandler`, which need the table (this module does not, so the route
 * table can be read without one).
 */
export function defineTextCollection<Text extends string>(options: TextCollectionOptions<Text>) {
  const { entity, singular, plural, tag, keys, names, docs } = options;
  const texts = Object.entries(options.text) as [Text, number][];
  type Fields = TextFields<Text>;
  type Record = TextRecord<Text>;

  const Record = v.object({ id: Id, ...Object.fromEntries(texts.map(([name]) => [name, v.string()])), isActive: v.boolean(), updatedAt: Timestamp }) as unknown as v.GenericSchema<Record, Record>;
  const fields = { ...Object.fromEntries(texts.map(([name, max]) => [name, NonEmptyString(name, max)])), isActive: v.boolean('isActive must be a boolean') } as v.ObjectEntries;
  const CreateBody = v.strictObject({ ...fields, isActive: v.optional(fields.isActive!, true) }) as unknown as v.GenericSchema<Partial<Fields>, Fields>;
  const UpdateBody = partialUpdateBody(fields) as unknown as v.GenericSchema<Partial<Fields>, Partial<Fields>>;
  const IdPath = v.object({ [`${singular}Id`]: integerString(`${singular}Id`, { label: options.label }) }) as unknown as v.GenericSchema<{ [key: string]: string }, { [key: string]: number }>;
  const Response = v.object({ [singular]: Record }) as unknown as v.GenericSchema<{ [key: string]: Record }>;
  const PageOfRecords = pageSchema(plural, Record);
  const Deleted = deletedSchema(Id);

  /** createdAt is kept on the item for audit; the API's record is id, the texts, isActive and updatedAt. The change log (updatedSince) is named as the collection's counter is. */
  const toItem = (organizationId: string, record: Record, at: string) => ({ ...keys.item(organizationId, record.id), ...changeLogKey(organizationId, keys.counter), entity, ...record, createdAt: at, updatedAt: at });
  const fromItem = (item: { [key: string]: unknown }): Record => v.parse(Record, item);

  const unique = options.unique;
  /** What the claim item holds: the record that has the text, and the text as that record spells it. */
  const toClaimItem = (organizationId: string, record: Record) =>
    unique && { ...unique.claim(organizationId, record[unique.field]), entity: `${entity}_${unique.field.toUpperCase()}`, [`${singular}Id`]: record.id, [unique.field]: record[unique.field] };
  // A claim is read (update, delete) and written beside the record, and a taken text answers 409.
  const claimed = unique ? { reads: ['GetItem'] as DynamoAction[], writes: ['PutItem', 'DeleteItem'] as DynamoAction[], errors: [409] as const } : { reads: [], writes: [], errors: [] };

  const path = `/v1/${plural}`;
  const itemPath = `${path}/{${singular}Id}`;
  const row = (_verb: string, dynamodb: DynamoAction[]) => ({ tag, dynamodb });
  const routes = {
    list: defineRoute({ operationId: `list${names.many}`, method: 'GET', path, ...docs.list, ...row('list', ['Query', 'GetItem']), indexes: ['gsi6'], status: 200, request: { query: PageQuery }, response: PageOfRecords, errors: [400] }),
    create: defineRoute({ operationId: `create${names.one}`, method: 'POST', path, ...docs.create, ...row('create', ['UpdateItem', 'PutItem']), status: 201, request: { body: CreateBody }, response: Response, errors: [400, ...claimed.errors] }),
    get: defineRoute({ operationId: `get${names.one}`, method: 'GET', path: itemPath, ...docs.get, ...row('get', ['GetItem']), status: 200, request: { path: IdPath }, response: Response, errors: [400, 404] }),
    update: defineRoute({
      operationId: `update${names.one}`,
      method: 'PUT',
      alsoPatch: true,
      path: itemPath,
      ...docs.update,
      ...row('update', ['UpdateItem', ...claimed.reads, ...claimed.writes]),
      status: 200,
      request: { path: IdPath, body: UpdateBody },
      response: Response,
      errors: [400, 404, ...claimed.errors],
    }),
    // PutItem: the delete's audit entry, in its transaction.
    delete: defineRoute({ operationId: `delete${names.one}`, method: 'DELETE', path: itemPath, ...docs.delete, ...row('delete', ['DeleteItem', 'UpdateItem', 'PutItem', ...claimed.reads]), status: 200, request: { path: IdPath }, response: Deleted, errors: [400, 404] }),
  };
  return {
    schemas: { Record, CreateBody, UpdateBody, IdPath, Response, Page: PageOfRecords, Deleted },
    options,
    toItem,
    fromItem,
    toClaimItem,
    route: routes,
    routes: [routes.list, routes.create, routes.get, routes.update, routes.delete],
    /** Its records as the audit log names them: `faq`, `policy`. */
    audited: { entity, resourceType: singular } satisfies AuditedRecord,
  };
}

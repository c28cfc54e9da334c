import * as v from 'valibot';
import type { IsolationCase, IsolationIds } from '../resource';
import { defineRoute, type DynamoAction } from '../routes/route';
import { PageQuery, deletedSchema, integerString, pageSchema } from '../schema';
import type { CrudOptions, CrudVerb } from './define';
import type { FieldTable } from './fields';
import { storeSteps, STEP_ACTIONS } from './plan';

/** What the reference says of one operation. */
interface OperationDoc {
  summary: string;
  description: string;
}

export type CrudDocs = Record<CrudVerb, OperationDoc>;

type Body = v.GenericSchema<{ [key: string]: unknown }, { [key: string]: unknown }>;

/** `/v1/companies/{companyId}/notes` with A's ids filled in. */
const filled = (template: string) => (ids: IsolationIds) => template.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name]));

/**
 * The five routes of a CRUD resource, each granted exactly the DynamoDB actions of the store's steps for its verb
 * (shared/crud/plan.ts), with the schemas they use, and how each answers another organization.
 */
export function crudRoutes<F extends FieldTable, R>(options: CrudOptions<F>, { Record, CreateBody, UpdateBody }: { Record: v.GenericSchema<R, R>; CreateBody: Body; UpdateBody: Body }, { updatable, required }: { updatable: string[]; required: string[] }) {
  const { singular, plural, tag, names, docs, parent } = options;
  const idParam = `${singular}Id`;
  const ParentPath = parent?.path;
  const IdPath = v.object({ ...ParentPath?.entries, [idParam]: integerString(idParam, { label: options.label }) }) as unknown as v.GenericSchema<{ [key: string]: string }, { [key: string]: number } & { [key: string]: string }>;
  const Response = v.object({ [singular]: Record }) as unknown as v.GenericSchema<{ [key: string]: R }>;
  const Page = pageSchema(plural, Record);
  const Deleted = deletedSchema(v.pipe(v.number(), v.integer()));

  const steps = storeSteps(options);
  /** The actions of the store's steps for a verb, and those its rules add. */
  const row = (verb: CrudVerb) => ({ tag, ...docs[verb], dynamodb: [...new Set([...steps[verb].flatMap((step) => STEP_ACTIONS[step]), ...(options.ruleActions?.[verb] ?? [])])] as DynamoAction[] });
  // A taken unique text answers 409; a missing parent, 404.
  const taken = options.unique ? ([409] as const) : [];
  const missingParent = parent ? ([404] as const) : [];
  const path = options.path ?? `/v1/${plural}`;
  const itemPath = `${path}/{${idParam}}`;
  const routes = {
    list: defineRoute({ operationId: `list${names.many}`, method: 'GET', path, ...row('list'), indexes: ['gsi6'], status: 200, request: { ...(ParentPath && { path: ParentPath }), query: options.listQuery ?? PageQuery }, response: Page, errors: [400, ...missingParent] }),
    create: defineRoute({ operationId: `create${names.one}`, method: 'POST', path, ...row('create'), status: 201, request: { ...(ParentPath && { path: ParentPath }), body: CreateBody }, response: Response, errors: [400, ...missingParent, ...taken] }),
    get: defineRoute({ operationId: `get${names.one}`, method: 'GET', path: itemPath, ...row('get'), status: 200, request: { path: IdPath }, response: Response, errors: [400, 404] }),
    update: defineRoute({ operationId: `update${names.one}`, method: 'PUT', alsoPatch: true, path: itemPath, ...row('update'), status: 200, request: { path: IdPath, body: UpdateBody }, response: Response, errors: [400, 404, ...taken] }),
    delete: defineRoute({ operationId: `delete${names.one}`, method: 'DELETE', path: itemPath, ...row('delete'), status: 200, request: { path: IdPath }, response: Deleted, errors: [400, 404] }),
  };

  // Organization B names A's records, sending the example's updatable or required fields (ids by parameter name, as test/isolation.test.ts has them): 404 wherever an id enters.
  const example = options.example as { [key: string]: unknown };
  const changes = Object.fromEntries(updatable.map((name) => [name, example[name]]));
  const created = Object.fromEntries(required.map((name) => [name, example[name]]));
  const notFound = (template: string, body?: object): IsolationCase[] => [{ path: filled(template), ...(body && { body: () => body }), expect: 'not-found' }];
  const isolationCases = {
    [routes.get.operationId]: notFound(itemPath),
    [routes.update.operationId]: notFound(itemPath, changes),
    [routes.delete.operationId]: notFound(itemPath),
    [routes.list.operationId]: parent ? notFound(path) : `lists the caller’s ${plural}`,
    [routes.create.operationId]: parent ? notFound(path, created) : 'creates; references nothing',
  };
  return { routes, schemas: { Record, CreateBody, UpdateBody, IdPath, Response, Page, Deleted }, isolationCases, bodies: { created, changes } };
}

import type * as v from 'valibot';
import { defineRoute, type DynamoAction, type RouteDefinition, type RouteRequest } from './route';

type Schema = v.GenericSchema;

/**
 * What a row of a standard kind says of itself: its operationId, path, words, tag and schemas, and whatever its
 * store or its rules add. The kind supplies the method, the status and the errors every row of it answers.
 */
export interface OwnRow<R extends RouteRequest, S extends Schema> extends Omit<RouteDefinition, 'method' | 'status' | 'errors' | 'dynamodb' | 'request' | 'response' | 'alsoPatch'> {
  request: R;
  response: S;
  /** Its DynamoDB actions, when not the kind's usual ones. */
  dynamodb?: DynamoAction[];
  /** Statuses it answers beyond the kind's (a 409 of a taken name, a 404 of a record the body names). */
  errors?: number[];
}

/**
 * The errors a row that validates its request answers: 400 for what it was sent, 404 when its path names a record
 * (which may not exist, or be another organization's), and its own; in ascending order, as the document lists them.
 */
function errorsOf(request: RouteRequest, own: readonly number[] = []): number[] {
  return [...new Set([400, ...(request.path ? [404] : []), ...own])].sort((a, b) => a - b);
}

/** A row of a kind: its own part over the kind's method, status and usual DynamoDB actions. */
function rowOf<R extends RouteRequest, S extends Schema>(kind: Pick<RouteDefinition, 'method' | 'status' | 'dynamodb' | 'alsoPatch'>, { errors, ...own }: OwnRow<R, S>): RouteDefinition<R, S> {
  return defineRoute<R, S>({ ...kind, ...own, dynamodb: own.dynamodb ?? kind.dynamodb, errors: errorsOf(own.request, errors) });
}

/** `GET …/{id}`: one record, read by its key. */
export const getRow = <R extends RouteRequest & { path: Schema }, S extends Schema>(row: OwnRow<R, S>) => rowOf({ method: 'GET', status: 200, dynamodb: ['GetItem'] }, row);

/** `GET` of a collection: a page of it, and the counter its `totalCount` reads. Below a record (`…/{id}/notes`), 404 for an unknown one. */
export const listRow = <R extends RouteRequest & { query: Schema }, S extends Schema>(row: OwnRow<R, S>) => rowOf({ method: 'GET', status: 200, dynamodb: ['Query', 'GetItem'] }, row);

/** `POST` of a collection: the record's id reserved from its counter, and the record put. */
export const createRow = <R extends RouteRequest & { body: Schema }, S extends Schema>(row: OwnRow<R, S>) => rowOf({ method: 'POST', status: 201, dynamodb: ['UpdateItem', 'PutItem'] }, row);

/**
 * A change of any subset of a record's fields: `PATCH …/{id}`, or the `PUT` the spec names, which PATCH answers
 * too (`alsoPatch`).
 */
export const updateRow = <R extends RouteRequest & { path: Schema; body: Schema }, S extends Schema>({ method = 'PATCH', ...row }: OwnRow<R, S> & { method?: 'PUT' | 'PATCH' }) =>
  rowOf({ method, status: 200, dynamodb: ['UpdateItem'], ...(method === 'PUT' && { alsoPatch: true }) }, row);

/** `DELETE …/{id}`: the record deleted, its collection's count lowered and its audit entry put, in one transaction. */
export const deleteRow = <R extends RouteRequest & { path: Schema }, S extends Schema>(row: OwnRow<R, S>) => rowOf({ method: 'DELETE', status: 200, dynamodb: ['DeleteItem', 'UpdateItem', 'PutItem'] }, row);

/**
 * `POST …/{id}/<verb>`: an act on one record (a new secret, a test sent, a delivery queued) rather than a record made:
 * 200 with what it did, or 202 when it is only queued. Acts share no usual DynamoDB actions, so each names its own.
 */
export const actionRow = <R extends RouteRequest & { path: Schema }, S extends Schema>({ status = 200, ...row }: OwnRow<R, S> & { dynamodb: DynamoAction[]; status?: 200 | 202 }) =>
  rowOf({ method: 'POST', status, dynamodb: row.dynamodb }, row);

/**
 * `GET` of what the organization or the deployment has one of (its receptionist context, a built-in catalog), with
 * nothing in the request to validate: no 400, and only the errors it names.
 */
export const readRow = <S extends Schema>({ errors = [], ...row }: OwnRow<Record<never, never>, S> & { dynamodb: DynamoAction[] }) =>
  defineRoute({ ...row, method: 'GET', status: 200, errors });

import type { DynamoAction } from '../routes/route';
import type { CrudOptions, CrudVerb } from './define';
import type { FieldTable } from './fields';

/**
 * The steps a CRUD store takes (shared/crud/store.ts), each with the DynamoDB actions it calls. The store runs a
 * verb's steps as `storeSteps` lists them and its routes are granted their actions, so a grant cannot drift from
 * what the store does; a rule that adds a write declares its actions in `ruleActions`.
 */
export const STEP_ACTIONS = {
  /** The id sequence's UpdateItem (reserveIds). */
  reserveId: ['UpdateItem'],
  /** The record's Put, on condition that it is new. */
  insert: ['PutItem'],
  /** The collection's counter moved in the write's transaction (on condition that the parent is there, under one). */
  count: ['UpdateItem'],
  /** A page of the collection (or of its change log) and the counter its totalCount reads. */
  page: ['Query', 'GetItem'],
  /** One strongly consistent read of the record. */
  read: ['GetItem'],
  /** The changed fields set on condition that the record exists. */
  setFields: ['UpdateItem'],
  /** A versioned record's whole item put on condition of the version read. */
  putVersion: ['PutItem'],
  /** A unique text's claim put beside a new record. */
  claim: ['PutItem'],
  /** A changed unique text's claim moved: the old one deleted, the new one put (taken → 409). */
  moveClaim: ['PutItem', 'DeleteItem'],
  /** The record deleted, with its unique text's claim if it has one. */
  remove: ['DeleteItem'],
  /** The delete's audit entry, in its transaction. */
  auditDeletion: ['PutItem'],
} as const satisfies Record<string, readonly DynamoAction[]>;

export type Step = keyof typeof STEP_ACTIONS;

/**
 * The steps of each verb. A resource with a unique text reads the record before an update that may change it (to
 * move its claim) and before its delete (to free it); a versioned one reads it before both, and puts it whole.
 */
export function storeSteps(options: Pick<CrudOptions<FieldTable>, 'unique' | 'versioned' | 'keys'>): Record<CrudVerb, Step[]> {
  const unique = options.unique !== undefined;
  const claim: Step[] = unique ? ['claim'] : [];
  const count: Step[] = options.keys.counter === undefined ? [] : ['count'];
  const read: Step[] = unique || options.versioned ? ['read'] : [];
  const write: Step[] = options.versioned ? ['putVersion', ...(unique ? (['moveClaim'] as const) : [])] : unique ? ['setFields', 'moveClaim'] : ['setFields'];
  return {
    list: ['page'],
    create: ['reserveId', ...claim, 'insert', ...count],
    get: ['read'],
    update: [...read, ...write],
    delete: [...read, 'remove', ...count, 'auditDeletion'],
  };
}

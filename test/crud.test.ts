import { describe, expect, it } from 'vitest';
import { companyNotes } from '../functions/companies/notes';
import { noteRules } from '../functions/companies/notes-store';
import { faqs } from '../functions/faqs/collection';
import { policies } from '../functions/policies/collection';
import { transfers } from '../functions/transfers/collection';
import { crudStore } from '#shared/crud/store';

/**
 * A CRUD route is granted the actions of its store's steps and of its rules' declared writes (shared/crud/plan.ts);
 * every request of the suite is held to its grant (test/support/dynamo-calls.ts). These hold the declarations to the rules.
 */
describe('defineCrudResource', () => {
  it('refuses rules that run in a verb whose ruleActions declare nothing, so no grant misses a rule’s writes', () => {
    expect(() => crudStore(faqs, { writes: () => [] })).toThrow('FAQ: its writes rule runs in create, which declare no ruleActions');
    expect(() => crudStore(transfers, { check: async (_, next) => next })).not.toThrow();
    expect(() => crudStore({ ...transfers, options: { ...transfers.options, ruleActions: { ...transfers.options.ruleActions, update: undefined } } }, { check: async (_, next) => next })).toThrow(
      'TRANSFER: its check rule runs in update, which declare no ruleActions',
    );
    expect(() => crudStore(companyNotes, noteRules)).not.toThrow();
  });

  it('refuses a check rule on a record that is not versioned, whose update never reads the merged record', () => {
    expect(() => crudStore({ ...faqs, options: { ...faqs.options, ruleActions: { create: [], update: [] } } }, { check: async (_, next) => next })).toThrow('FAQ: a check rule needs a versioned record');
  });

  it('grants each route its steps’ actions and its rules’ declared ones: a blind update one UpdateItem, a unique text’s move a read, a put and a delete', () => {
    const actions = (route: { dynamodb: string[] }) => [...route.dynamodb].sort();
    expect(actions(faqs.route.get)).toEqual(['GetItem']);
    expect(actions(faqs.route.update)).toEqual(['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem']);
    expect(actions(policies.route.update)).toEqual(['UpdateItem']);
    expect(actions(policies.route.delete)).toEqual(['DeleteItem', 'PutItem', 'UpdateItem']);
    expect(actions(companyNotes.route.create)).toEqual(['ConditionCheckItem', 'PutItem', 'UpdateItem']);
    expect(actions(transfers.route.delete)).toEqual(['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem']);
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { recordRows } from '#shared/routes/record-rows';

/** A schema module as a resource's schema.ts is: its record's schemas by their conventional names, and others. */
const GadgetIdPath = v.object({ gadgetId: v.string() });
const GadgetResponse = v.object({ gadget: v.object({ id: v.string() }) });
const ListGadgetsQuery = v.object({ page: v.optional(v.string()) });
const GadgetPage = v.object({ gadgets: v.array(v.object({ id: v.string() })) });
const CreateGadgetBody = v.object({ name: v.string() });
const UpdateGadgetBody = v.object({ name: v.optional(v.string()) });
const schemas = { GadgetIdPath, GadgetResponse, ListGadgetsQuery, GadgetPage, CreateGadgetBody, UpdateGadgetBody, GadgetsPage: v.object({}) };
const words = { summary: 'A row', description: 'What it does.' };

describe("a record's rows (recordRows)", () => {
  const gadget = recordRows(schemas, { tag: 'Gadgets', names: { one: 'Gadget', many: 'Gadgets' }, path: '/v1/gadgets' });

  it("take each schema from the record's module by its conventional name, and place and name each row", () => {
    const list = gadget.list({ ...words, dynamodb: ['Query'] });
    expect({ operationId: list.operationId, path: list.path, tag: list.tag }).toEqual({ operationId: 'listGadgets', path: '/v1/gadgets', tag: 'Gadgets' });
    expect(list.request.query).toBe(ListGadgetsQuery);
    expect(list.response).toBe(GadgetPage);
    const update = gadget.update({ ...words, dynamodb: ['UpdateItem'] });
    expect({ operationId: update.operationId, path: update.path }).toEqual({ operationId: 'updateGadget', path: '/v1/gadgets/{gadgetId}' });
    expect(update.request).toEqual({ path: GadgetIdPath, body: UpdateGadgetBody });
    expect(update.response).toBe(GadgetResponse);
    expect(gadget.create({ ...words, dynamodb: ['PutItem'] }).request.body).toBe(CreateGadgetBody);
  });

  it('takes a schema given by hand before the one of its name', () => {
    const Shared = v.object({ page: v.optional(v.string()), limit: v.optional(v.string()) });
    const given = recordRows(schemas, { tag: 'Gadgets', names: { one: 'Gadget', many: 'Gadgets' }, path: '/v1/gadgets', given: { query: Shared } });
    expect(given.list({ ...words, dynamodb: ['Query'] }).request.query).toBe(Shared);
  });

  it('refuses a row whose schema the module lacks, naming the name it looked for (one letter off is not found)', () => {
    expect(() => gadget.delete({ ...words, dynamodb: ['DeleteItem'] })).toThrow("Gadget's routes find no GadgetDeleted schema");
    const { GadgetResponse: answer, ...others } = schemas;
    const oneLetterMore = () => recordRows({ ...others, GadgetResponses: answer }, { tag: 'Gadgets', names: { one: 'Gadget', many: 'Gadgets' }, path: '/v1/gadgets' });
    expect(oneLetterMore).toThrow("Gadget's routes find no GadgetResponse schema");
    // A record only listed and added (no id path) has no row of one record.
    const { GadgetIdPath: _idPath, ...unnamed } = schemas;
    const listedOnly = recordRows(unnamed, { tag: 'Gadgets', names: { one: 'Gadget', many: 'Gadgets' }, path: '/v1/gadgets' });
    expect(listedOnly.create({ ...words, dynamodb: ['PutItem'] }).path).toBe('/v1/gadgets');
    expect(() => listedOnly.get({ ...words, dynamodb: ['GetItem'] })).toThrow("Gadget's routes find no GadgetIdPath schema");
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineEntity, heldAsRead } from '#shared/store/entity';
import { partialUpdateBody } from '#shared/schema';

/**
 * An entity declared by its attribute table alone: the record schema, the bodies, the item mapping and the index moves
 * read from it. A tag here: a name, a colour a create may leave out (a default in the create body), a note a change may clear, a
 * count only the service writes and a flag only a change takes.
 */
const tagEntity = defineEntity({
  entity: 'TAG',
  attributes: {
    id: { type: v.string() },
    name: { type: v.string(), rule: v.pipe(v.string(), v.minLength(1)), required: true, answeredAfter: 'uses' },
    colour: { type: v.string(), rule: v.picklist(['red', 'blue']), default: 'blue', defaultInBody: true },
    note: { type: v.nullable(v.string()), rule: v.string(), clearable: true, sparse: true },
    group: { type: v.nullable(v.string()), rule: v.string(), nullable: true },
    uses: { type: v.number(), sparse: true },
    pinned: { type: v.boolean(), rule: v.boolean(), changeOnly: true, sparse: true },
    kind: { type: v.string(), rule: v.picklist(['job', 'lead']), required: true, createOnly: true },
  },
  key: (organizationId, id) => ({ pk: `ORG#${organizationId}`, sk: `TAG#${id}` }),
  indexes: {
    gsi2: { fields: ['colour'], keys: (organizationId, tag) => ({ pk: `ORG#${organizationId}#TAGS#${tag.colour}`, sk: tag.id }) },
    gsi3: { fields: ['group'], keys: (organizationId, tag) => (tag.group ? { pk: `ORG#${organizationId}#GROUP#${tag.group}`, sk: tag.id } : undefined) },
  },
  changes: 'TAGS',
});

const CreateTagBody = v.strictObject(tagEntity.create);
const UpdateTagBody = partialUpdateBody(tagEntity.change);
const tag = { id: 'tag_1', name: 'Urgent', colour: 'red' as const, note: null, group: 'jobs', uses: 0, pinned: false, kind: 'job' };

describe('an entity derived from its attribute table', () => {
  it('answers its fields in the order of its rows, each answered after another moved behind that one', () => {
    expect(Object.keys(tagEntity.Record.entries)).toEqual(['id', 'colour', 'note', 'group', 'uses', 'name', 'pinned', 'kind']);
  });

  it('refuses a field answered after one that is no attribute', () => {
    const attributes = { id: { type: v.string() }, name: { type: v.string(), answeredAfter: 'title' } };
    expect(() => defineEntity({ entity: 'X', attributes, key: (o, id) => ({ pk: o, sk: id }) })).toThrow(/name is answered after title, which is no attribute/);
  });

  it('refuses options that would be ignored as combined, when the entity is defined', () => {
    const define = (row: Record<string, unknown>) => () => defineEntity({ entity: 'X', attributes: { id: { type: v.string() }, field: row as never }, key: (o, id) => ({ pk: o, sk: id }) });
    expect(define({ type: v.string(), sparse: true })).toThrow(/field: sparse, but it has no default to leave out/);
    expect(define({ type: v.string(), rule: v.string(), defaultInBody: true })).toThrow(/field: its default is in the create body, but it has none/);
    expect(define({ type: v.boolean(), rule: v.boolean(), changeOnly: true, createOnly: true })).toThrow(/field: change-only and create-only: no write takes it/);
    expect(define({ type: v.string(), rule: v.string(), nullable: true })).toThrow(/field: nullable or clearable, but its type does not take null/);
    expect(define({ type: v.string(), rule: v.string(), clearable: true })).toThrow(/field: nullable or clearable, but its type does not take null/);
    // The same options each where they mean something.
    expect(define({ type: v.string(), rule: v.string(), default: '', defaultInBody: true, sparse: true })).not.toThrow();
    expect(define({ type: v.nullable(v.string()), rule: v.string(), clearable: true, changeOnly: true })).not.toThrow();
  });

  it('a create takes the writable fields but the change-only ones, requires the required and fills a default the body states', () => {
    expect(Object.keys(CreateTagBody.entries)).toEqual(['name', 'colour', 'note', 'group', 'kind']);
    expect(v.parse(CreateTagBody, { name: 'Urgent', kind: 'job' })).toEqual({ name: 'Urgent', colour: 'blue', kind: 'job' });
    expect(v.safeParse(CreateTagBody, { colour: 'red', kind: 'job' }).success).toBe(false);
    // A clearable field takes null only in a change; a nullable one in a create too.
    expect(v.safeParse(CreateTagBody, { name: 'Urgent', kind: 'job', note: null }).success).toBe(false);
    expect(v.parse(CreateTagBody, { name: 'Urgent', kind: 'job', group: null })).toEqual({ name: 'Urgent', colour: 'blue', kind: 'job', group: null });
    expect(v.safeParse(CreateTagBody, { name: 'Urgent', kind: 'job', pinned: true }).success).toBe(false);
  });

  it('a change takes every writable field, optional, null where it may be cleared, and no read-only or create-only one', () => {
    expect(Object.keys(UpdateTagBody.entries)).toEqual(['name', 'colour', 'note', 'group', 'pinned']);
    expect(v.parse(UpdateTagBody, { note: null, group: null, pinned: true })).toEqual({ note: null, group: null, pinned: true });
    expect(v.safeParse(UpdateTagBody, { name: null }).success).toBe(false);
    expect(v.safeParse(UpdateTagBody, { uses: 3 }).success).toBe(false);
    expect(v.safeParse(UpdateTagBody, { kind: 'lead' }).success).toBe(false);
    // A default in the create body belongs to a create: a change leaving the field out leaves it alone.
    expect(v.parse(UpdateTagBody, { name: 'Later' })).toEqual({ name: 'Later' });
  });

  it('a new record holds each field’s default: the row’s, else the empty value of its type', () => {
    expect(tagEntity.defaults).toEqual({ colour: 'blue', note: null, group: null, uses: 0, pinned: false });
  });

  it('the item has its keys, index keys and change log, leaves sparse fields out while default and reads them back', () => {
    const item = tagEntity.toItem('o1', tag);
    expect(item).toEqual({
      pk: 'ORG#o1',
      sk: 'TAG#tag_1',
      gsi2pk: 'ORG#o1#TAGS#red',
      gsi2sk: 'tag_1',
      gsi3pk: 'ORG#o1#GROUP#jobs',
      gsi3sk: 'tag_1',
      gsi6pk: 'ORG#o1#CHANGES#TAGS',
      entity: 'TAG',
      id: 'tag_1',
      name: 'Urgent',
      colour: 'red',
      group: 'jobs',
      kind: 'job',
    });
    expect(tagEntity.fromItem(item)).toEqual(tag);
    expect(tagEntity.toItem('o1', { ...tag, uses: 2, note: 'call first' })).toMatchObject({ uses: 2, note: 'call first' });
  });

  it('a change moves the keys of the indexes whose fields changed, and removes those the record leaves', () => {
    expect(tagEntity.indexMoves('o1', tag, { ...tag, name: 'Renamed' })).toEqual({ set: {}, remove: [] });
    expect(tagEntity.indexMoves('o1', tag, { ...tag, colour: 'blue' })).toEqual({ set: { gsi2pk: 'ORG#o1#TAGS#blue', gsi2sk: 'tag_1' }, remove: [] });
    expect(tagEntity.indexMoves('o1', tag, { ...tag, group: null })).toEqual({ set: {}, remove: ['gsi3pk', 'gsi3sk'] });
    expect(tagEntity.indexFields).toEqual(['colour', 'group']);
  });

  it('a change moves an index whose keys changed, whichever field they were built from', () => {
    // The index's keys read `name`, which its fields leave out: the keys built before and after the change decide.
    const named = defineEntity({
      entity: 'TAG',
      attributes: { id: { type: v.string() }, name: { type: v.string() }, colour: { type: v.string() } },
      key: (organizationId, id) => ({ pk: `ORG#${organizationId}`, sk: `TAG#${id}` }),
      // Typed as the index's fields allow (its id and colour), its keys read `name` all the same.
      indexes: { gsi1: { fields: ['colour'], keys: (organizationId, tag: { id: string; colour: string; name?: string }) => ({ pk: `ORG#${organizationId}#TAGS#${tag.colour}`, sk: `${tag.name}#${tag.id}` }) } },
    });
    const before = { id: 'tag_1', name: 'Urgent', colour: 'red' };
    expect(named.indexMoves('o1', before, { ...before, name: 'Later' })).toEqual({ set: { gsi1pk: 'ORG#o1#TAGS#red', gsi1sk: 'Later#tag_1' }, remove: [] });
    expect(named.indexMoves('o1', before, { ...before })).toEqual({ set: {}, remove: [] });
  });

  it('a write conditioned on the fields as read names each, a null one as absent or null', () => {
    expect(heldAsRead(tag, ['colour', 'note'])).toEqual({
      expression: '#k0 = :k0 AND (attribute_not_exists(#k1) OR attribute_type(#k1, :nullType))',
      names: { '#k0': 'colour', '#k1': 'note' },
      values: { ':nullType': 'NULL', ':k0': 'red' },
    });
  });
});

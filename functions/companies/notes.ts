import * as v from 'valibot';
import { defineCrudResource } from '#shared/crud/define';
import { field, text } from '#shared/crud/fields';
import { NotFoundError, ValidationError } from '#shared/errors';
import { PrefixedId } from '#shared/schema';
import { companyCounterNames, companyKeys } from './entity';
import { CompanyIdPath } from './schema';

/** The document's example company (functions/companies/examples.ts), which its example note is on. */
export const EXAMPLE_COMPANY_ID = 'company_01JA4N8S2T6V0W4X8Y2Z6A0B4C';

const unknownAuthor = (userId: unknown) => new ValidationError([{ path: 'userId', message: `userId ${String(userId)} does not match any member of the organization` }]);

/** The team's notes on a company, below it: its counter exists exactly while the company does. */
export const companyNotes = defineCrudResource({
  entity: 'COMPANY_NOTE',
  sequence: 'NOTE',
  singular: 'note',
  plural: 'notes',
  path: '/v1/companies/{companyId}/notes',
  parent: { param: 'companyId', path: CompanyIdPath, notFound: () => new NotFoundError('Company not found') },
  label: 'Company note',
  tag: 'Companies',
  kind: 'company_note',
  fields: {
    value: text(5000),
    companyId: field(v.string()),
    /** null for a note written with an API key rather than by a member. */
    userId: field(v.nullable(v.string()), (name) => PrefixedId('user', name, { unknown: unknownAuthor }), { nullable: true, default: null, defaultInBody: true, createOnly: true }),
  },
  showsCreatedAt: true,
  wholeUpdate: true,
  keys: { item: companyKeys.companyNote, collection: companyKeys.companyNotes, counter: companyCounterNames.companyNotes },
  // The author's check, in the create's transaction (notes-store.ts).
  ruleActions: { create: ['ConditionCheckItem'] },
  names: { one: 'CompanyNote', many: 'CompanyNotes' },
  docs: {
    list: { summary: "List a company's notes, newest first", description: 'Pages through the notes of one company, newest first. An unknown company answers 404, not an empty list.' },
    create: { summary: 'Add a note to a company', description: '`userId`, when given, must be a member’s user of the organization (else 400); a note written without one has `userId: null`.' },
    get: { summary: 'Read a company note', description: 'One note of one company; a note of another company, of a deleted company or of another organization answers 404.' },
    update: { summary: 'Change a company note’s text', description: 'Replaces `value` and moves `updatedAt`.' },
    delete: { summary: 'Delete a company note', description: 'Removes the note and lowers the notes count in one transaction. A note already gone answers 404.' },
  },
  // Written by the organization example's member (USER_ID in functions/organization/examples.ts), here so the stream consumer, which reads this definition, reaches no example module.
  example: {
    id: 4,
    value: 'Asked for a quote to replace the hot water plant at Kurraba Point before winter.',
    companyId: EXAMPLE_COMPANY_ID,
    userId: 'user_01JBQ0ZP5W9X7Y3Z1A2B4C6D8E',
    createdAt: '2026-11-14T03:20:00.000Z',
    updatedAt: '2026-11-14T03:20:00.000Z',
  },
});

export const { Record: CompanyNote } = companyNotes.schemas;
export type CompanyNote = v.InferOutput<typeof CompanyNote>;
export { unknownAuthor };

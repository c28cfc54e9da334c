import * as v from 'valibot';
import { deletedSchema, integerString, NonEmptyString, PageQuery, PrefixedId, Timestamp, pageSchema, partialUpdateBody } from '../../shared/schema';
import { TrimmedString } from '../../shared/schema/trimmed';
import { ValidationError } from '../../shared/errors';
import { companyEntity } from './attributes';

/** A customer business of the organization: a strata manager, a builder, an agency. */
export const Company = companyEntity.Record;
export type Company = v.InferOutput<typeof Company>;

/** The writable fields, with what a create may leave out and its default (the same pattern for every resource, by design). */
export const CreateCompanyBody = v.strictObject(companyEntity.create);
export type CreateCompanyBody = v.InferOutput<typeof CreateCompanyBody>;

/** null clears an optional field. */
export const UpdateCompanyBody = partialUpdateBody(companyEntity.change);
export type CompanyChanges = v.InferOutput<typeof UpdateCompanyBody>;

export const ListCompaniesQuery = v.object({
  ...PageQuery.entries,
  q: v.optional(TrimmedString('q', 200, v.description('The start of the company’s name, ignoring case and accents.'))),
});
export type ListCompaniesQuery = v.InferOutput<typeof ListCompaniesQuery>;

export const CompanyIdPath = v.object({ companyId: PrefixedId('company', 'companyId') });
export const CompanyResponse = v.object({ company: Company });
export const CompanyPage = pageSchema('companies', Company);
export const CompanyDeleted = deletedSchema(v.string());

/** userId is null for a note written with an API key rather than by a member. */
export const CompanyNote = v.object({
  id: v.pipe(v.number(), v.integer()),
  value: v.string(),
  companyId: v.string(),
  userId: v.nullable(v.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type CompanyNote = v.InferOutput<typeof CompanyNote>;

const noteFields = {
  value: NonEmptyString('value', 5000),
  userId: v.nullable(PrefixedId('user', 'userId', { unknown: (userId) => new ValidationError([{ path: 'userId', message: `userId ${String(userId)} does not match any member of the organization` }]) })),
};

export const CreateCompanyNoteBody = v.strictObject({ ...noteFields, userId: v.optional(noteFields.userId, null) });
export type CreateCompanyNoteBody = v.InferOutput<typeof CreateCompanyNoteBody>;

export const UpdateCompanyNoteBody = v.strictObject({ value: noteFields.value });

export const CompanyNotePath = v.object({ ...CompanyIdPath.entries, noteId: integerString('noteId', { label: 'Company note' }) });
export const CompanyNotePage = pageSchema('notes', CompanyNote);
export const CompanyNoteResponse = v.object({ note: CompanyNote });
export const CompanyNoteDeleted = deletedSchema(v.pipe(v.number(), v.integer()));

import * as v from 'valibot';
import { deletedSchema, PageQuery, PrefixedId, pageSchema, partialUpdateBody } from '#shared/schema';
import { TrimmedString } from '#shared/schema/trimmed';
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

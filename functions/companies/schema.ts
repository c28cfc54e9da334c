import * as v from 'valibot';
import { deletedSchema, Email, NonEmptyString, PageQuery, PrefixedId, Timestamp, pageSchema, partialUpdateBody } from '../../shared/schema';
import { TypedPhone } from '../leads/schema';

/** A customer business of the organization: a strata manager, a builder, an agency. */
export const Company = v.object({
  id: v.string(),
  name: v.string(),
  website: v.nullable(v.string()),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  address: v.nullable(v.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Company = v.InferOutput<typeof Company>;

const companyFields = {
  name: NonEmptyString('name', 200),
  website: v.nullable(
    v.pipe(
      v.string('website must be a string'),
      v.trim(),
      v.maxLength(2000, 'website must be at most 2000 characters'),
      v.url('website must be a URL, e.g. https://example.com.au'),
      v.check((url) => /^https?:\/\//i.test(url), 'website must be an http or https URL'),
    ),
  ),
  email: v.nullable(Email('email')),
  phone: v.nullable(TypedPhone),
  address: v.nullable(NonEmptyString('address', 500)),
};

/** The field map with what a create may leave out and its default (the same pattern for every resource, by design). */
export const CreateCompanyBody = v.strictObject({
  ...companyFields,
  website: v.optional(companyFields.website, null),
  email: v.optional(companyFields.email, null),
  phone: v.optional(companyFields.phone, null),
  address: v.optional(companyFields.address, null),
});
export type CreateCompanyBody = v.InferOutput<typeof CreateCompanyBody>;

/** null clears an optional field. */
export const UpdateCompanyBody = partialUpdateBody(companyFields);
export type CompanyChanges = v.InferOutput<typeof UpdateCompanyBody>;

export const ListCompaniesQuery = v.object({
  ...PageQuery.entries,
  q: v.optional(
    v.pipe(
      v.string('q must be a string'),
      v.trim(),
      v.minLength(1, 'q must not be empty'),
      v.maxLength(200, 'q must be at most 200 characters'),
      v.description('The start of the company’s name, ignoring case and accents.'),
    ),
  ),
});
export type ListCompaniesQuery = v.InferOutput<typeof ListCompaniesQuery>;

export const CompanyIdPath = v.object({ companyId: PrefixedId('company', 'companyId') });
export const CompanyResponse = v.object({ company: Company });
export const CompanyPage = pageSchema('companies', Company);
export const CompanyDeleted = deletedSchema(v.string());

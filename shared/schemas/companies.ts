import * as v from 'valibot';
import { NonEmptyString, Timestamp, pageSchema } from './common';

/** A customer business (strata manager, builder, agency); no endpoint reads it yet but its notes. */
export const Company = v.object({
  id: v.string(),
  name: v.string(),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  suburb: v.nullable(v.string()),
  createdAt: Timestamp,
});
export type Company = v.InferOutput<typeof Company>;

export const CompanyNote = v.object({
  id: v.pipe(v.number(), v.integer()),
  value: v.string(),
  companyId: v.string(),
  userId: v.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type CompanyNote = v.InferOutput<typeof CompanyNote>;

export const CompanyIdPath = v.object({ companyId: NonEmptyString('companyId', 100) });
export const CompanyNotePage = pageSchema('notes', CompanyNote);

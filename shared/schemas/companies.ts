import * as v from 'valibot';
import { NonEmptyString, Timestamp, pageSchema } from './common';

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

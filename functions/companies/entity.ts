import * as v from 'valibot';
import { Company, CompanyNote } from './schema';
import { keys } from '../../shared/store/keys';

export function toCompanyItem(organizationId: string, company: Company) {
  return { ...keys.company(organizationId, company.id), entity: 'COMPANY', ...company };
}

export const fromCompanyItem = (item: Record<string, unknown>): Company => v.parse(Company, item);

export function toCompanyNoteItem(organizationId: string, note: CompanyNote) {
  return { ...keys.companyNote(organizationId, note.companyId, note.id), entity: 'COMPANY_NOTE', ...note };
}

export const fromCompanyNoteItem = (item: Record<string, unknown>): CompanyNote => v.parse(CompanyNote, item);

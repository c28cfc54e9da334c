import type { CompanyNote } from '../schemas/companies';
import { keys } from './keys';

/** A customer business (strata manager, builder, agency); no endpoint reads it yet but its notes. */
export interface Company {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  suburb: string | null;
  createdAt: string;
}

export function toCompanyItem(organizationId: string, company: Company) {
  return { ...keys.company(organizationId, company.id), entity: 'COMPANY', ...company };
}

export type CompanyNoteItem = CompanyNote & { pk: string; sk: string; entity: 'COMPANY_NOTE' };

export function toCompanyNoteItem(organizationId: string, note: CompanyNote): CompanyNoteItem {
  return { ...keys.companyNote(organizationId, note.companyId, note.id), entity: 'COMPANY_NOTE', ...note };
}

export function fromCompanyNoteItem(item: Record<string, unknown>): CompanyNote {
  const i = item as CompanyNoteItem;
  return { id: i.id, value: i.value, companyId: i.companyId, userId: i.userId, createdAt: i.createdAt, updatedAt: i.updatedAt };
}

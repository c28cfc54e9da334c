import { fromCompanyNoteItem, toCompanyItem, toCompanyNoteItem } from '../entities/company';
import { counterNames, keys } from '../entities/keys';
import { NotFoundError } from '../errors';
import { newId, now } from '../ids';
import type { Page } from '../pagination';
import type { Company, CompanyNote } from '../schemas/companies';
import { counterUpdate } from './counters';
import { countedPage } from './query-page';
import { reserveIds } from './sequences';
import { insertIfAbsent, transact } from './transact';

export const NOTE_SEQUENCE = 'NOTE';

const companyNotFound = () => new NotFoundError('Company not found');

export interface NewCompany {
  name: string;
  email?: string | null;
  phone?: string | null;
  suburb?: string | null;
}

/** The company and its notes counter (at 0), together: the counter's presence is the company's. */
export async function createCompany(organizationId: string, input: NewCompany, createdAt = new Date()): Promise<Company> {
  const company: Company = {
    id: newId('company', createdAt),
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    suburb: input.suburb ?? null,
    createdAt: createdAt.toISOString(),
  };
  await transact([insertIfAbsent(toCompanyItem(organizationId, company)), counterUpdate(organizationId, counterNames.companyNotes(company.id), 0)]);
  return company;
}

/** The note and its counter step, in one transaction that fails when the company does not exist. */
export async function addCompanyNote(
  organizationId: string,
  companyId: string,
  input: { value: string; userId: string },
  createdAt = now(),
): Promise<CompanyNote> {
  const note: CompanyNote = {
    id: await reserveIds(organizationId, NOTE_SEQUENCE),
    value: input.value,
    companyId,
    userId: input.userId,
    createdAt,
    updatedAt: createdAt,
  };
  await transact([insertIfAbsent(toCompanyNoteItem(organizationId, note)), counterUpdate(organizationId, counterNames.companyNotes(companyId), 1, companyNotFound)]);
  return note;
}

/**
 * The notes counter exists exactly while its company does, so reading it answers "is this
 * company here?" without a third call.
 */
export async function listCompanyNotesPage(organizationId: string, companyId: string, page: number, limit: number): Promise<Page<CompanyNote>> {
  const { items, totalCount } = await countedPage(keys.companyNotes(organizationId, companyId), organizationId, counterNames.companyNotes(companyId), page, limit);
  if (totalCount === undefined) throw companyNotFound();
  return { items: items.map(fromCompanyNoteItem), totalCount, page, limit };
}

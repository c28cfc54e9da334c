import type { Company } from './schema';
import { organizationPartition, pad, type Collection, type Key, keySamplesOf } from '#shared/store/keys';
import { companyEntity } from './attributes';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

/** A company's own item key is `leadKeys.company` (a lead's write checks its companyId against it). */
export const companyKeys = {
  companies: (o: string): Collection => ({ pk: org(o), skPrefix: 'COMPANY#' }),
  companyNote: (o: string, companyId: string, id: number): Key => ({ pk: `${org(o)}#COMPANY#${companyId}`, sk: `NOTE#${pad(id)}` }),
  companyNotes: (o: string, companyId: string): Collection => ({ pk: `${org(o)}#COMPANY#${companyId}`, skPrefix: 'NOTE#' }),
  /** gsi1: the organization's companies by name (read by `searchKey`), so a name prefix is one key range of the index. */
  companyNameIndex: (o: string, company: Pick<Company, 'id' | 'name'>) => companyEntity.indexKeys(o, company) as { gsi1pk: string; gsi1sk: string },
} as const;

/** The names of the companies' counter items (`COUNT#<name>`). */
export const companyCounterNames = {
  companies: 'COMPANIES',
  /** Exists exactly while the company does. */
  companyNotes: (companyId: string) => `NOTES#${companyId}`,
} as const;

/** The companies' change log (updatedSince); a company's notes' is named as their counter is (functions/companies/notes.ts). */
export const COMPANY_CHANGES = companyEntity.changes;

export const companyKeySamples = keySamplesOf(companyKeys, {
  companies: [],
  companyNote: ['company_1', 1],
  companyNotes: ['company_1'],
  companyNameIndex: [{ id: 'company_1', name: 'Harbourside Strata' }],
});

export const toCompanyItem = companyEntity.toItem;

export const fromCompanyItem = companyEntity.fromItem;

/** A company, as the audit log names it (GET /v1/audit-log). */
export const companyAudit: AuditedRecord = { entity: 'COMPANY', resourceType: 'company' };
